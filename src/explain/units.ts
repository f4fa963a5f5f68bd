/** Amounts, durations and prices in the words a user reads. */
export { amount, amounts, decimal } from '../scheduling/index.js';

/** A duration in the largest whole units that keep it readable ("40 s", "4m", "2h10m"). */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 120) return `${m}m`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
}

/** An hourly price ("$0.192/h"). */
export function hourly(price: number): string {
  return `$${price < 0.01 ? price.toFixed(4) : price.toFixed(3)}/h`;
}
