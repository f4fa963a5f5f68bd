/** karpenter.sh/v1alpha1 NodeOverlay: schema and types. */
export * from './schema.js';
