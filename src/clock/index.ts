/** Injected time: the Clock interface, the wall clock and a fake clock for tests and the playground. */
export * from './clock.js';
export * from './fake-clock.js';
