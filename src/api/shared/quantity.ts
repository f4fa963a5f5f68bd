/**
 * Kubernetes resource quantities (resource.Quantity), parsed exactly: the one parser production code uses (the
 * scheduling engine, the embedded API server's admission, metrics). Every legal form is accepted: signed decimals,
 * decimal SI suffixes (n u m k M G T P E), binary suffixes (Ki … Ei) and exponents (1e3, 12E-1). The placement
 * checker and the lower bound keep their own arithmetic on purpose (scheduling/rules/oracle-amounts.ts).
 */

/** A quantity as an exact fraction: `num / 10^scale`. */
export interface ExactQuantity {
  num: bigint;
  scale: number;
}

const binaryPower: Readonly<Record<string, number>> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const decimalExponent: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const quantityParts = /^([+-]?)(\d+\.?\d*|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE]([+-]?\d+))?$/;

/**
 * The quantity as an exact fraction, or undefined when the text is not a quantity. A JSON number (`cpu: 1` in YAML
 * reaches the API as one) is read as its decimal text, as the API server does.
 */
export function exactQuantity(q: string | number): ExactQuantity | undefined {
  const m = quantityParts.exec(typeof q === 'number' ? String(q) : q.trim());
  if (!m) return undefined;
  const [, sign, digits = '0', suffix, exponent] = m;
  const [whole, frac = ''] = digits.split('.');
  let num = BigInt(`${whole || '0'}${frac}`) * (sign === '-' ? -1n : 1n);
  let scale = frac.length;
  const power = suffix === undefined ? undefined : binaryPower[suffix];
  if (power !== undefined) num *= 1n << BigInt(10 * power);
  else scale -= exponent !== undefined ? Number(exponent) : (decimalExponent[suffix ?? ''] ?? 0);
  return scale < 0 ? { num: num * 10n ** BigInt(-scale), scale: 0 } : { num, scale };
}

/** True when `q` is a legal Kubernetes quantity. */
export function isQuantity(q: string | number): boolean {
  return exactQuantity(q) !== undefined;
}

/** a - b as a sign: -1, 0 or 1. */
export function compareQuantities(a: ExactQuantity, b: ExactQuantity): number {
  const scale = Math.max(a.scale, b.scale);
  const x = a.num * 10n ** BigInt(scale - a.scale);
  const y = b.num * 10n ** BigInt(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The quantity times 10^`exp10` (1000 for milli-units), rounded up to an integer; throws on an illegal quantity. */
export function scaledQuantity(q: string | number, exp10: number): bigint {
  const e = exactQuantity(q);
  if (!e) throw new Error(`invalid quantity ${JSON.stringify(q)}`);
  const shift = exp10 - e.scale;
  if (shift >= 0) return e.num * 10n ** BigInt(shift);
  const den = 10n ** BigInt(-shift);
  const quotient = e.num / den;
  return e.num > 0n && quotient * den !== e.num ? quotient + 1n : quotient;
}
