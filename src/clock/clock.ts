/** Time as every Tenon component sees it: injected, so tests and the playground can run time faster. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` after `ms` milliseconds of this clock's time; returns a function that cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

/** Resolves after `ms` of the clock's time. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => {
    clock.setTimer(ms, resolve);
  });
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (ms, fn) => {
    const t = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(t);
  },
};

/** RFC 3339 text of a clock instant, as Kubernetes timestamps are written (second precision). */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
