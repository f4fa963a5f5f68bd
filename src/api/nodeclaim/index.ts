/** karpenter.sh/v1 NodeClaim: schema and types. */
export * from './schema.js';
