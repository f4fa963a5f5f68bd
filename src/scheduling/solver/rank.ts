/**
 * Tenon's choice of planned NodeClaim for a pod (best fit by marginal price). Karpenter tries planned NodeClaims
 * with the fewest pods first and grows each until its largest instance type is full; the fleet then follows the
 * order pods arrived in. Tenon instead scores planned NodeClaims (those the free-cpu index offers, see
 * bin-index.ts) by what adding the pod would add to the price of the type the bin is meant to fill (zero when the
 * pod fits in its slack), then by the slack left, and tries them best first. Only numbers are compared here; the
 * full constraint check (requirements, topology, ports) runs on the ranked candidates only, which keeps it fast.
 */
import type { InstanceTypeInfo } from '../instance-types.js';
import type { PodInfo } from '../pod-info.js';
import { exceeded, type Resources } from '../resources/resources.js';
import type { NewBin } from './new-bin.js';

/** A planned NodeClaim scored for one pod. */
export interface Candidate {
  bin: NewBin;
  /** Added hourly price of the cheapest option that would hold the pod. */
  delta: number;
  /** Fraction of cpu and memory left unused on that option afterwards (lower is a tighter fit). */
  slack: number;
}

function slackAfter(bin: NewBin, pod: PodInfo, it: InstanceTypeInfo): number {
  let s = 0;
  for (const k of ['cpu', 'memory']) {
    const a = it.allocatable[k] ?? 0;
    if (a > 0) s += (a - (bin.requests[k] ?? 0) - (pod.requests[k] ?? 0)) / a;
  }
  return s;
}

/** The cheapest option of `bin` (by list price; options are kept cheapest first) that holds the pod too. */
function firstFitting(bin: NewBin, pod: PodInfo): InstanceTypeInfo | undefined {
  for (let i = bin.fit; i < bin.options.length; i++) {
    const it = bin.options[i] as InstanceTypeInfo;
    if (exceeded(bin.requests, pod.requests, it.allocatable) === undefined) return it;
  }
  return undefined;
}

/** `bin` as a candidate when the pod fits in the slack of the type the bin is meant to fill (no added price). */
export function freeCandidate(bin: NewBin, pod: PodInfo): Candidate | undefined {
  const current = bin.current();
  if (!current || exceeded(bin.requests, pod.requests, current.allocatable) !== undefined) return undefined;
  return { bin, delta: 0, slack: slackAfter(bin, pod, current) };
}

/** Scores the bins that need a dearer instance type, keeping those whose added price is below `limit`. */
export function scoreDearer(bins: readonly NewBin[], pod: PodInfo, limit: number): Candidate[] {
  const out: Candidate[] = [];
  for (const bin of bins) {
    const current = bin.current();
    const next = firstFitting(bin, pod);
    if (!current || !next) continue;
    const delta = Math.max(0, next.price - current.price);
    if (delta < limit) out.push({ bin, delta, slack: slackAfter(bin, pod, next) });
  }
  return out;
}

const better = (a: Candidate, b: Candidate): boolean => a.delta < b.delta || (a.delta === b.delta && a.slack < b.slack);

/**
 * Yields candidates best first. The best few are found by linear selection (usually the first one is taken);
 * after repeated refusals the rest is sorted once.
 */
export function* bestFirst(cands: Candidate[]): Generator<Candidate> {
  let tries = 0;
  while (cands.length > 0 && tries < 8) {
    let best = 0;
    for (let i = 1; i < cands.length; i++) if (better(cands[i] as Candidate, cands[best] as Candidate)) best = i;
    const c = cands[best] as Candidate;
    cands[best] = cands[cands.length - 1] as Candidate;
    cands.pop();
    tries++;
    yield c;
  }
  cands.sort((a, b) => a.delta - b.delta || a.slack - b.slack);
  yield* cands;
}

/** The cheapest hourly price of an instance type among `types` (cheapest first) that holds `requests`. */
export function cheapestHolding(types: readonly InstanceTypeInfo[], requests: Resources): number {
  for (const it of types) if (exceeded({}, requests, it.allocatable) === undefined) return it.price;
  return Number.POSITIVE_INFINITY;
}
