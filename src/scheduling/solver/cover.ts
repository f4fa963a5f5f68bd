/**
 * Packing one class of interchangeable pods (same node requirements, no constraint tied to their node) into the
 * cheapest set of nodes, for the improvement pass (repack.ts). Pods of one request shape are packed exactly: the
 * cheapest cover of n pods is a shortest path over counts (dynamic programming over the pods each type holds).
 * Mixed shapes are packed greedily by price per unit of work done — each pod weighs what it would cost on the
 * type that holds it most cheaply, by its bottleneck resource — opening the type whose first-fit filling costs
 * least per weight, and, for the last few nodes, the first choice that leads to the cheapest completion.
 */
import type { InstanceTypeInfo } from '../instance-types.js';
import type { PodInfo } from '../pod-info.js';
import type { Resources } from '../resources/resources.js';

/** An instance type as a node for the class: room after DaemonSet overhead, price under the class's requirements. */
export interface BinKind {
  it: InstanceTypeInfo;
  price: number;
  room: Resources;
}

/** One node of a cover. */
export interface CoverBin {
  kind: BinKind;
  pods: PodInfo[];
}

/** What a cover is computed from. */
export interface CoverProblem {
  pods: readonly PodInfo[];
  /** Candidate types, cheapest first. */
  kinds: readonly BinKind[];
  /** False when a node holding `contents` (pod requests, overhead excluded) would break minValues. */
  valid: (contents: Resources) => boolean;
  /** Work units left (pods examined); the cover gives up (undefined) when they run out. */
  budget: { left: number };
}

/** Kinds in the last nodes of a greedy cover whose completion is simulated before one is chosen. */
const RolloutKinds = 6;
/** The tail: simulate completions once the remaining weight is at most this many fills of the best kind. */
const TailFills = 3;
/** Kinds kept after the first step (the best by price per weight on the whole class): large catalogs have hundreds. */
const KeptKinds = 24;

function keysOf(pods: readonly PodInfo[]): string[] {
  const keys = new Set<string>();
  for (const p of pods) for (const k in p.requests) if ((p.requests[k] ?? 0) > 0) keys.add(k);
  return [...keys].sort();
}

/** Kinds no other kind beats: another as cheap with at least as much room in every requested resource drops it. */
function undominated(kinds: readonly BinKind[], keys: readonly string[]): BinKind[] {
  const out: BinKind[] = [];
  for (const k of kinds) {
    const beaten = out.some((o) => o.price <= k.price && keys.every((r) => (o.room[r] ?? 0) >= (k.room[r] ?? 0)));
    if (!beaten) out.push(k);
  }
  return out;
}

/** How many pods of `unit` fit in `room`. */
function countFitting(room: Resources, unit: Resources): number {
  let n = Number.POSITIVE_INFINITY;
  for (const k in unit) {
    const u = unit[k] ?? 0;
    if (u > 0) n = Math.min(n, Math.floor((room[k] ?? 0) / u));
  }
  return Number.isFinite(n) ? Math.max(0, n) : 0;
}

function times(unit: Resources, n: number): Resources {
  const out: Resources = {};
  for (const k in unit) out[k] = (unit[k] ?? 0) * n;
  return out;
}

/** The most pods of `unit` a node of `kind` holds without breaking minValues (valid is monotone in the count). */
function validCount(kind: BinKind, unit: Resources, valid: CoverProblem['valid']): number {
  const most = countFitting(kind.room, unit);
  if (most === 0 || valid(times(unit, most))) return most;
  let lo = 0;
  let hi = most;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (valid(times(unit, mid))) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The exact cheapest cover of identical pods: cost[n] = min over kinds of price + cost[n - held]. */
function uniformCover(p: CoverProblem): CoverBin[] | undefined {
  const first = p.pods[0];
  if (!first) return [];
  const unit = first.requests;
  const sized: { kind: BinKind; held: number }[] = [];
  for (const kind of p.kinds) {
    const held = validCount(kind, unit, p.valid);
    // Cheapest first: a dearer kind is worth keeping only when it holds more.
    if (held > 0 && held > (sized[sized.length - 1]?.held ?? 0)) sized.push({ kind, held });
  }
  if (sized.length === 0) return undefined;
  const n = p.pods.length;
  p.budget.left -= n * sized.length;
  if (p.budget.left < 0) return undefined;
  const cost = new Float64Array(n + 1);
  const choice = new Int32Array(n + 1);
  for (let m = 1; m <= n; m++) {
    let best = Number.POSITIVE_INFINITY;
    for (let j = 0; j < sized.length; j++) {
      const s = sized[j] as { kind: BinKind; held: number };
      const c = s.kind.price + (cost[Math.max(0, m - s.held)] ?? 0);
      if (c < best - 1e-12) {
        best = c;
        choice[m] = j;
      }
    }
    cost[m] = best;
  }
  const bins: CoverBin[] = [];
  for (let m = n; m > 0;) {
    const s = sized[choice[m] ?? 0] as { kind: BinKind; held: number };
    const take = Math.min(m, s.held);
    bins.push({ kind: s.kind, pods: p.pods.slice(n - m, n - m + take) });
    m -= take;
  }
  return bins;
}

interface Fill {
  kind: BinKind;
  taken: number[];
  value: number;
}

/** Per pod: its price on the kind that holds it most cheaply, by its bottleneck resource. */
function weights(pods: readonly PodInfo[], kinds: readonly BinKind[]): number[] | undefined {
  const out: number[] = [];
  for (const pod of pods) {
    let w = Number.POSITIVE_INFINITY;
    for (const k of kinds) {
      let share = 0;
      for (const r in pod.requests) {
        const q = pod.requests[r] ?? 0;
        if (q > 0) share = Math.max(share, q / (k.room[r] ?? 0));
      }
      if (share <= 1) w = Math.min(w, k.price * share);
    }
    if (!Number.isFinite(w)) return undefined;
    out.push(w);
  }
  return out;
}

/** First-fit of `order` (indices into pods, largest first) into one node of `kind`. */
function fill(
  kind: BinKind,
  order: readonly number[],
  ctx: { p: CoverProblem; w: readonly number[] },
): Fill | undefined {
  const used: Resources = {};
  const taken: number[] = [];
  let value = 0;
  ctx.p.budget.left -= order.length;
  for (const i of order) {
    const req = (ctx.p.pods[i] as PodInfo).requests;
    let fits = true;
    for (const r in req) {
      if ((used[r] ?? 0) + (req[r] ?? 0) > (kind.room[r] ?? 0)) {
        fits = false;
        break;
      }
    }
    if (!fits) continue;
    for (const r in req) used[r] = (used[r] ?? 0) + (req[r] ?? 0);
    taken.push(i);
    value += ctx.w[i] ?? 0;
  }
  if (taken.length === 0 || !ctx.p.valid(used)) return undefined;
  return { kind, taken, value };
}

/** Fills of every kind for the remaining pods, best price per weight first. */
function rankedFills(
  order: readonly number[],
  ctx: { p: CoverProblem; w: readonly number[]; kinds: readonly BinKind[] },
): Fill[] {
  const fills: Fill[] = [];
  for (const k of ctx.kinds) {
    const f = fill(k, order, ctx);
    if (f) fills.push(f);
  }
  return fills.sort((a, b) => a.kind.price / a.value - b.kind.price / b.value || b.value - a.value);
}

function without(order: readonly number[], taken: readonly number[]): number[] {
  const gone = new Set(taken);
  return order.filter((i) => !gone.has(i));
}

/** Greedy completion: the price of covering `order`, and the fills, or undefined when the budget runs out. */
function greedy(
  order: number[],
  ctx: { p: CoverProblem; w: readonly number[]; kinds: readonly BinKind[] },
  rollout: boolean,
): { price: number; fills: Fill[] } | undefined {
  const fills: Fill[] = [];
  let price = 0;
  let rest = order;
  while (rest.length > 0) {
    if (ctx.p.budget.left < 0) return undefined;
    const ranked = rankedFills(rest, ctx);
    let best = ranked[0];
    if (!best) return undefined;
    const remaining = rest.reduce((s, i) => s + (ctx.w[i] ?? 0), 0);
    if (rollout && remaining <= TailFills * best.value)
      best = bestCompletion(ranked.slice(0, RolloutKinds), rest, ctx) ?? best;
    fills.push(best);
    price += best.kind.price;
    rest = without(rest, best.taken);
  }
  return { price, fills };
}

/** Of the candidate first fills, the one whose greedy completion costs least in total. */
function bestCompletion(
  cands: readonly Fill[],
  rest: readonly number[],
  ctx: { p: CoverProblem; w: readonly number[]; kinds: readonly BinKind[] },
): Fill | undefined {
  let best: { fill: Fill; price: number } | undefined;
  for (const f of cands) {
    const after = greedy(without(rest, f.taken), ctx, false);
    if (!after) return undefined;
    const price = f.kind.price + after.price;
    if (!best || price < best.price - 1e-12) best = { fill: f, price };
  }
  return best?.fill;
}

function sameShape(pods: readonly PodInfo[]): boolean {
  const first = pods[0];
  if (!first) return true;
  const keys = Object.keys(first.requests);
  return pods.every(
    (p) => Object.keys(p.requests).length === keys.length && keys.every((k) => p.requests[k] === first.requests[k]),
  );
}

/** The cheapest cover this module finds for the class, or undefined (no kind holds some pod, or out of budget). */
export function cover(p: CoverProblem): CoverBin[] | undefined {
  const kinds = undominated(p.kinds, keysOf(p.pods));
  if (sameShape(p.pods)) return uniformCover({ ...p, kinds });
  const w = weights(p.pods, kinds);
  if (!w) return undefined;
  const order = p.pods.map((_, i) => i).sort((a, b) => (w[b] ?? 0) - (w[a] ?? 0) || a - b);
  const kept = rankedFills(order, { p, w, kinds })
    .slice(0, KeptKinds)
    .map((f) => f.kind);
  const result = greedy(order, { p, w, kinds: kept }, true);
  return result?.fills.map((f) => ({ kind: f.kind, pods: f.taken.map((i) => p.pods[i] as PodInfo) }));
}
