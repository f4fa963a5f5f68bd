/**
 * Pricing for column generation: the most valuable set of pods (values = class duals) one node of a variant can
 * hold. `fractionalBound` is a cheap valid upper bound (the best single-resource fractional knapsack, each class
 * bounded by how many fit at all); `bestConfiguration` solves the integer problem exactly by branch and bound (a MIP solver call per
 * pricing problem costs tens of milliseconds in HiGHS's WebAssembly build, far more than these small searches).
 */

/** One pricing problem: classes with weights (per resource, scaled), bounds and values, and the node's capacity. */
export interface Pricing {
  capacity: number[];
  items: { cls: number; weight: number[]; bound: number; value: number; anti: string | undefined }[];
}

/**
 * The fractional knapsack bound of the surrogate constraint Σ_k μ_k·(Σ weight_k) ≤ Σ_k μ_k·capacity_k, which every
 * configuration satisfies for μ ≥ 0 (each class still bounded by how many fit at all).
 */
function surrogate(p: Pricing, mu: readonly number[]): number {
  let cap = p.capacity.reduce((s, c, k) => s + c * (mu[k] ?? 0), 0);
  let total = 0;
  const weighted = [];
  for (const it of p.items) {
    if (it.value <= 0) continue;
    const w = it.weight.reduce((s, x, k) => s + x * (mu[k] ?? 0), 0);
    if (w <= 0) total += it.value * it.bound;
    else weighted.push({ ratio: it.value / w, w, it });
  }
  weighted.sort((a, b) => b.ratio - a.ratio);
  for (const x of weighted) {
    if (cap <= 0) break;
    const n = Math.min(x.it.bound, cap / x.w);
    total += n * x.it.value;
    cap -= n * x.w;
  }
  return total;
}

/** Mixes of two resources tried besides each resource alone (a node full in cpu and memory at once is bounded better). */
const Mixes = [0.2, 0.35, 0.5, 0.65, 0.8];

/** A valid upper bound on the best configuration's value: the least of several surrogate relaxations. */
export function fractionalBound(p: Pricing): number {
  const n = p.capacity.length;
  const unit = (k: number, t: number): number => (p.capacity[k] ?? 0) > 0 ? t / (p.capacity[k] ?? 1) : 0;
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < n; k++) best = Math.min(best, surrogate(p, p.capacity.map((_, j) => (j === k ? 1 : 0))));
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      for (const t of Mixes) best = Math.min(best, surrogate(p, p.capacity.map((_, j) => (j === a ? unit(a, t) : j === b ? unit(b, 1 - t) : 0))));
    }
  }
  return Number.isFinite(best) ? best : p.items.reduce((s, it) => s + Math.max(0, it.value) * it.bound, 0);
}

interface Search {
  items: Pricing['items'];
  /** Per resource: item indices by value per unit of that resource, zero-weight items first. */
  order: number[][];
  capacity: number[];
  counts: number[];
  used: Set<string>;
  value: number;
  best: { value: number; counts: number[] };
  nodes: number;
  limit: number;
}

function remainingBound(s: Search, from: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < s.capacity.length; k++) {
    let cap = s.capacity[k] ?? 0;
    let total = 0;
    for (const i of s.order[k] ?? []) {
      const it = s.items[i];
      if (i < from || !it || (it.anti !== undefined && s.used.has(it.anti))) continue;
      const w = it.weight[k] ?? 0;
      if (w <= 0) total += it.value * it.bound;
      else if (cap > 0) {
        const n = Math.min(it.bound, cap / w);
        total += n * it.value;
        cap -= n * w;
      }
    }
    best = Math.min(best, total);
    if (best <= 0) break;
  }
  return best;
}

function maxCount(s: Search, i: number): number {
  const it = s.items[i];
  if (!it || (it.anti !== undefined && s.used.has(it.anti))) return 0;
  let n = it.bound;
  for (let k = 0; k < s.capacity.length; k++) {
    const w = it.weight[k] ?? 0;
    if (w > 0) n = Math.min(n, Math.floor(((s.capacity[k] ?? 0) + 1e-12) / w));
  }
  return it.anti !== undefined ? Math.min(n, 1) : Math.max(0, n);
}

function take(s: Search, i: number, n: number): void {
  const it = s.items[i];
  if (!it) return;
  for (let k = 0; k < s.capacity.length; k++) s.capacity[k] = (s.capacity[k] ?? 0) - n * (it.weight[k] ?? 0);
  s.value += n * it.value;
  s.counts[i] = (s.counts[i] ?? 0) + n;
  if (it.anti !== undefined) {
    if (n > 0) s.used.add(it.anti);
    else if (n < 0) s.used.delete(it.anti);
  }
}

/** Depth-first branch and bound over how many pods of each class to take; false when the node limit cut it short. */
function search(s: Search, i: number): boolean {
  if (++s.nodes > s.limit) return false;
  if (s.value > s.best.value) s.best = { value: s.value, counts: [...s.counts] };
  if (i >= s.items.length || s.value + remainingBound(s, i) <= s.best.value + 1e-12) return true;
  for (let n = maxCount(s, i); n >= 0; n--) {
    take(s, i, n);
    const done = search(s, i + 1);
    take(s, i, -n);
    if (!done) return false;
  }
  return true;
}

/** Value per unit of resource k (zero-weight items first). */
function ratio(it: Pricing['items'][number] | undefined, k: number): number {
  if (!it) return 0;
  const w = it.weight[k] ?? 0;
  return w <= 0 ? Number.POSITIVE_INFINITY : it.value / w;
}

/** The best configuration (pod counts per class) and its value; `proven` is false when the search was cut short. */
export function bestConfiguration(p: Pricing, nodeLimit = 3_000): { value: number; counts: Map<number, number>; proven: boolean } {
  // Most valuable per unit of the scarcest resource first, so good solutions come early and prune the rest.
  const density = (it: Pricing['items'][number]): number => it.value / Math.max(1e-12, ...it.weight.map((w, k) => w / Math.max(1e-12, p.capacity[k] ?? 0)));
  const items = p.items.filter((it) => it.value > 1e-12 && it.bound > 0).sort((a, b) => density(b) - density(a));
  const order = p.capacity.map((_, k) =>
    items.map((_, i) => i).sort((a, b) => ratio(items[b], k) - ratio(items[a], k)),
  );
  const s: Search = { items, order, capacity: [...p.capacity], counts: items.map(() => 0), used: new Set(), value: 0, best: { value: 0, counts: items.map(() => 0) }, nodes: 0, limit: nodeLimit };
  const proven = search(s, 0);
  const counts = new Map<number, number>();
  items.forEach((it, i) => {
    const n = s.best.counts[i] ?? 0;
    if (n > 0) counts.set(it.cls, n);
  });
  return { value: s.best.value, counts, proven };
}
