/** The cloud provider interface: what controllers need from any cloud, with typed errors. */
export * from './cloud-provider.js';
export * from './errors.js';
export * from './instance-type.js';
export * from './repair-policy.js';
export * from './types.js';
export * from './overlay/index.js';
