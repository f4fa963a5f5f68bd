/**
 * Quantities as the engine stores them: integers, milli-units for CPU and whole units (rounded up, as the API server
 * does) for everything else, which keeps the arithmetic exact in safe integers (8 EiB would not fit, no machine has
 * that much). Parsing is the API's one quantity parser (api/shared/quantity.ts).
 */
import { scaledQuantity } from '../../api/index.js';

export { isQuantity } from '../../api/index.js';

/** The quantity in milli-units, rounded up; throws on an illegal quantity. */
export function parseMilli(text: string | number): bigint {
  return scaledQuantity(text, 3);
}

/** The quantity in whole units, rounded up; throws on an illegal quantity. */
export function parseUnits(text: string | number): bigint {
  return scaledQuantity(text, 0);
}

/** Resources measured in milli-units; all others are whole units. */
export function isMilliResource(name: string): boolean {
  return name === 'cpu';
}

/** The integer the engine stores for resource `name` with quantity `text` (millicores for cpu, units otherwise). */
export function resourceValue(name: string, text: string): number {
  const v = isMilliResource(name) ? parseMilli(text) : parseUnits(text);
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(`quantity ${text} for ${name} is out of range`);
  }
  return Number(v);
}

/** Formats an engine integer back into a canonical quantity string (`1500m`, `2Gi`, `12`). */
export function formatResource(name: string, value: number): string {
  if (isMilliResource(name)) return value % 1000 === 0 ? String(value / 1000) : `${value}m`;
  for (const [suffix, pow] of [
    ['Gi', 30],
    ['Mi', 20],
    ['Ki', 10],
  ] as const) {
    const unit = 2 ** pow;
    if (value !== 0 && value % unit === 0) return `${value / unit}${suffix}`;
  }
  return String(value);
}
