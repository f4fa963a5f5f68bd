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

/** The longest delay `setTimeout` honours; Node fires a longer one after 1 ms with a TimeoutOverflowWarning. */
export const maxTimeoutMs = 2 ** 31 - 1;

/**
 * `setTimeout` for any delay: one past `maxTimeoutMs` (a 720h NodeClaim expiry) is chained in steps of at most
 * `maxTimeoutMs`, so it fires when due instead of at once. Returns a function that cancels it.
 */
export function setLongTimeout(ms: number, fn: () => void): () => void {
  let handle: ReturnType<typeof setTimeout>;
  const arm = (left: number): void => {
    handle =
      left > maxTimeoutMs
        ? setTimeout(() => arm(left - maxTimeoutMs), maxTimeoutMs)
        : setTimeout(fn, Math.max(0, left));
  };
  arm(ms);
  return () => clearTimeout(handle);
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: setLongTimeout,
};

/** RFC 3339 text of a clock instant, as Kubernetes timestamps are written (second precision). */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
