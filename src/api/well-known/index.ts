/** Well-known names of the Karpenter v1 API: groups, labels, taints, annotations, finalizers, conditions. */
export * from './groups.js';
export * from './labels.js';
export * from './taints.js';
export * from './annotations.js';
export * from './conditions.js';
export * from './condition-reasons.js';
