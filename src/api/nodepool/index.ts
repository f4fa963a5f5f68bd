/** karpenter.sh/v1 NodePool: schema and types. */
export * from './schema.js';
