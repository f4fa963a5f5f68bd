/**
 * The oracle's resource arithmetic: quantities and pod demand as the placement checker and the lower bound count
 * them. Written apart from production's quantity parser (api/shared/quantity.ts) and pod requests
 * (scheduling/resources/pod-requests.ts) on purpose, so that a bug there cannot hide in the two measures that
 * judge the solver; oracle-amounts.test.ts holds the two parsers to the same answers. Every quantity becomes an
 * exact bigint count of nano-units, so `0.1`, `100m` and `1e-1` compare equal and nothing rounds.
 */
import type { ResourceList } from '../../api/index.js';
import type { Container, Pod } from '../model.js';

/** Resource name -> nano-units. Missing names are zero. */
export type Amounts = Map<string, bigint>;

const shape = /^([+-]?)(\d*)(?:\.(\d*))?(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?$/;
const binaryPow: Record<string, bigint> = { Ki: 10n, Mi: 20n, Gi: 30n, Ti: 40n, Pi: 50n, Ei: 60n };
const decimalExp: Record<string, number> = { n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/**
 * Parses a Kubernetes quantity into nano-units, rounding a sub-nano remainder up; throws on malformed text. A
 * JSON number (`cpu: 1` in YAML reaches the API as one) is read as its decimal text, as the API server does.
 */
export function nanoOf(text: string | number): bigint {
  const m = shape.exec(String(text).trim());
  const intPart = m?.[2] ?? '';
  const fracPart = m?.[3] ?? '';
  if (!m || (intPart === '' && fracPart === '')) throw new Error(`malformed quantity ${JSON.stringify(text)}`);
  const negative = m[1] === '-';
  const digits = BigInt(`${intPart}${fracPart}` || '0');
  // value = digits * 10^(exp10 - fracLen) * 2^pow2, then times 10^9 for nano-units.
  const suffix = m[5] ?? '';
  const exp10 = 9 - fracPart.length + (m[4] ? Number(m[4].slice(1)) : 0) + (decimalExp[suffix] ?? 0);
  const num = scale(digits << (binaryPow[suffix] ?? 0n), exp10);
  return negative ? -num : num;
}

function scale(num: bigint, exp10: number): bigint {
  if (exp10 >= 0) return num * 10n ** BigInt(exp10);
  const den = 10n ** BigInt(-exp10);
  return (num + den - 1n) / den;
}

/** Parses a ResourceList. */
export function amountsOf(list: ResourceList | undefined): Amounts {
  const out: Amounts = new Map();
  for (const [k, v] of Object.entries(list ?? {})) out.set(k, nanoOf(v));
  return out;
}

/** a += b. */
export function addAmounts(a: Amounts, b: Amounts): void {
  for (const [k, v] of b) a.set(k, (a.get(k) ?? 0n) + v);
}

/** Element-wise max, in place on a. */
function maxInto(a: Amounts, b: Amounts): void {
  for (const [k, v] of b) if (v > (a.get(k) ?? 0n)) a.set(k, v);
}

/** Resources (name, needed, available) where `need` exceeds `have`. */
export function shortfalls(need: Amounts, have: Amounts): { resource: string; need: bigint; have: bigint }[] {
  const out: { resource: string; need: bigint; have: bigint }[] = [];
  for (const [k, v] of need) {
    const h = have.get(k) ?? 0n;
    if (v > 0n && v > h) out.push({ resource: k, need: v, have: h });
  }
  return out;
}

function containerRequests(c: Container): Amounts {
  // An omitted request defaults to the limit (API server defaulting).
  return amountsOf({ ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) });
}

/**
 * What a pod occupies on a node, by kube-scheduler's rules: the larger of (containers + sidecars) and, for each
 * init container in order, (sidecars started so far + that init container); plus pod overhead; plus one pod slot.
 */
export function podDemand(pod: Pod): Amounts {
  const sidecars: Amounts = new Map();
  const peak: Amounts = new Map();
  for (const c of pod.spec.initContainers ?? []) {
    const r = containerRequests(c);
    if (c.restartPolicy === 'Always') {
      addAmounts(sidecars, r);
      maxInto(peak, sidecars);
    } else {
      const during: Amounts = new Map(sidecars);
      addAmounts(during, r);
      maxInto(peak, during);
    }
  }
  const running: Amounts = new Map();
  for (const c of pod.spec.containers) addAmounts(running, containerRequests(c));
  addAmounts(running, sidecars);
  maxInto(running, peak);
  addAmounts(running, amountsOf(pod.spec.overhead));
  running.set('pods', (running.get('pods') ?? 0n) + 1_000_000_000n);
  return running;
}

/** A readable form of nano-units for messages (`1.5`, `2147483648`). */
export function formatNano(v: bigint): string {
  const whole = v / 1_000_000_000n;
  const frac = (v < 0n ? -v : v) % 1_000_000_000n;
  return frac === 0n ? String(whole) : `${whole}.${String(frac).padStart(9, '0').replace(/0+$/, '')}`;
}
