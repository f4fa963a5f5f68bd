/** Simulated, event-driven time for the playground. */
export * from './sim-clock.js';
export * from './tracked-transport.js';
export * from './wall-time-map.js';
export * from './sim-time-transport.js';
