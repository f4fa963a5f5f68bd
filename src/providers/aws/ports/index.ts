/** The AWS port: what the provider needs from AWS, and its error type. */
export * from './aws-port.js';
export * from './errors.js';
export * from './types.js';
export * from './queue.js';
