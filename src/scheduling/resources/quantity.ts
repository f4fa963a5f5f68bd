/**
 * Kubernetes resource quantities, parsed exactly. Every legal form is accepted: signed decimals, decimal SI
 * suffixes (n u m k M G T P E), binary suffixes (Ki … Ei) and exponents (1e3, 12E-1). Values are returned as
 * integers: milli-units for CPU, whole units (rounded up, as the API server does) for everything else, which
 * keeps the arithmetic exact in safe integers (8 EiB would not fit, no machine has that much).
 */

const binary: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const decimal: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const pattern = /^([+-]?)(\d+\.?\d*|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE]([+-]?\d+))?$/;

/** A quantity as an exact fraction: numerator / 10^scale. */
interface Exact {
  num: bigint;
  scale: number;
}

function exact(text: string): Exact | undefined {
  const m = pattern.exec(text.trim());
  if (!m) return undefined;
  const [, sign = '', digits = '0', suffix, exponent] = m;
  const [whole = '', frac = ''] = digits.split('.');
  let num = BigInt((whole || '0') + frac) * (sign === '-' ? -1n : 1n);
  let scale = frac.length;
  if (suffix !== undefined && suffix in binary) {
    num *= 1n << BigInt(10 * (binary[suffix] ?? 0));
  } else {
    scale -= exponent !== undefined ? Number(exponent) : (decimal[suffix ?? ''] ?? 0);
  }
  if (scale < 0) {
    num *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { num, scale };
}

function ceilDiv(num: bigint, den: bigint): bigint {
  const q = num / den;
  return num > 0n && q * den !== num ? q + 1n : q;
}

/** True when `text` is a legal Kubernetes quantity. */
export function isQuantity(text: string): boolean {
  return exact(text) !== undefined;
}

/** The quantity in milli-units, rounded up; throws on an illegal quantity. */
export function parseMilli(text: string): bigint {
  const e = exact(text);
  if (!e) throw new Error(`invalid quantity ${JSON.stringify(text)}`);
  return ceilDiv(e.num * 1000n, 10n ** BigInt(e.scale));
}

/** The quantity in whole units, rounded up; throws on an illegal quantity. */
export function parseUnits(text: string): bigint {
  const e = exact(text);
  if (!e) throw new Error(`invalid quantity ${JSON.stringify(text)}`);
  return ceilDiv(e.num, 10n ** BigInt(e.scale));
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
