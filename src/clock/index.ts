/** Injected time: the Clock interface, the wall clock, and the fake clock of tests (its timers are the playground SimClock's TimerHeap). */
export * from './clock.js';
export * from './fake-clock.js';
