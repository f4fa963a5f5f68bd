/** The in-memory fake cloud provider for controllers' tests. */
export * from './fake-cloud-provider.js';
export * from './instance-type-factory.js';
