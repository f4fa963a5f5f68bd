/** autoscaling.x-k8s.io/v1beta1 CapacityBuffer: schema and types. */
export * from './schema.js';
