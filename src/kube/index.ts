/** The kube layer: typed access to the Kubernetes API on top of @kubernetes/client-node's configuration. */
export * from './resources.js';
export * from './errors.js';
export * from './transport.js';
export * from './client.js';
export * from './watch.js';
export * from './object-cache.js';
export * from './informer.js';
export * from './work-queue.js';
export * from './reconciler.js';
export * from './conditional-update.js';
export * from './events.js';
export * from './token-bucket.js';
export * from './leader-election.js';
export * from './backoff.js';
export * from './core-types.js';
export * from './discovery.js';
export * from './read-your-writes.js';
