/** The Karpenter v1 API: well-known names, shared core types, schemas, CRDs and validation. */
export * from './well-known/index.js';
export * from './core.js';
export type * from './pod.js';
export * from './nodepool/index.js';
export * from './nodeclaim/index.js';
export * from './ec2nodeclass/index.js';
export * from './nodeoverlay/index.js';
export * from './capacitybuffer/index.js';
export * from './crds/index.js';
export * from './validation/index.js';
export type { ObjectMeta, OwnerReference } from './shared/object-meta.js';
export * from './shared/label-selector.js';
export * from './shared/quantity.js';
