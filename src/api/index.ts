/** The Karpenter v1 API: well-known names, shared core types, schemas, CRDs and validation. */
export * from './well-known/index.js';
export * from './core.js';
