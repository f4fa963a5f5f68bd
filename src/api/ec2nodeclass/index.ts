/** karpenter.k8s.aws/v1 EC2NodeClass: schema and types. */
export * from './schema.js';
export * from './kubelet.js';
export * from './selector-terms.js';
export * from './block-devices.js';
export * from './status.js';
export * from './kubelet-check.js';
export * from './network.js';
