/** Exponential back-off: `base` doubling per failure, capped at `max` (milliseconds). */
export interface Backoff {
  base: number;
  max: number;
}

/** The delay after `failures` consecutive failures (1 → base). */
export function backoffDelay(b: Backoff, failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(b.max, b.base * 2 ** Math.min(failures - 1, 40));
}
