/**
 * Pricing for column generation: the most valuable set of pods (values = class duals) one node of a variant can
 * hold. `fractionalBound` is a cheap valid upper bound (surrogate fractional knapsacks, each class bounded by how many
 * fit at all); `bestConfiguration` solves the integer problem exactly by branch and bound (a MIP solver call per
 * pricing problem costs tens of milliseconds in HiGHS's WebAssembly build, far more than these small searches).
 *
 * A hostname anti-affinity group allows at most one of its members per node, across all its classes. Bounding each
 * class by one alone would let a fractional bound take one of every class of the group, which is what kept the bound
 * loose on mixes with many anti-affine classes; both bounds here keep the group's limit: the largest group's choice
 * (which member, or none) is enumerated, and any further group is replaced by one dominating item (its members'
 * largest value at their least weight), which no single choice from the group can beat.
 */

/** One pricing problem: classes with weights (per resource, scaled), bounds and values, and the node's capacity. */
export interface Pricing {
  capacity: number[];
  /** Per resource, a step every item's weight is a whole multiple of (0: none known). */
  grain?: number[];
  items: { cls: number; weight: number[]; bound: number; value: number; anti: string | undefined }[];
}

type Item = Pricing['items'][number];

/** Items of a pricing problem with value split into free items and anti-affinity groups (largest group first). */
interface Split {
  free: Item[];
  groups: Item[][];
}

function split(items: readonly Item[]): Split {
  const free: Item[] = [];
  const by = new Map<string, Item[]>();
  for (const it of items) {
    if (it.value <= 1e-12 || it.bound <= 0) continue;
    if (it.anti === undefined) free.push(it);
    else by.set(it.anti, [...(by.get(it.anti) ?? []), it]);
  }
  return { free, groups: [...by.values()].sort((a, b) => b.length - a.length) };
}

/** One item no single member of `group` beats: the largest value at the least weight per resource, at most once. */
function dominating(group: readonly Item[], resources: number): Item {
  const weight = Array.from({ length: resources }, (_, k) => Math.min(...group.map((it) => it.weight[k] ?? 0)));
  return { cls: -1, weight, bound: 1, value: Math.max(...group.map((it) => it.value)), anti: undefined };
}

/** Greedy fractional knapsack over items pre-sorted by value per unit of surrogate weight (zero weights first). */
function greedy(sorted: readonly { w: number; it: Item }[], capacity: number): number {
  let cap = capacity;
  let total = 0;
  for (const x of sorted) {
    if (x.w <= 0) total += x.it.value * x.it.bound;
    else if (cap > 0) {
      const n = Math.min(x.it.bound, cap / x.w);
      total += n * x.it.value;
      cap -= n * x.w;
    }
  }
  return total;
}

const scalar = (it: Item, mu: readonly number[]): number => it.weight.reduce((s, x, k) => s + x * (mu[k] ?? 0), 0);

/**
 * The fractional knapsack bound of the surrogate constraint Σ_k μ_k·(Σ weight_k) ≤ Σ_k μ_k·capacity_k, which every
 * configuration satisfies for μ ≥ 0 (each class still bounded by how many fit at all), with the largest anti-affinity
 * group's choice enumerated.
 */
function surrogate(p: Pricing, s: Split, mu: readonly number[]): number {
  const cap = p.capacity.reduce((sum, c, k) => sum + c * (mu[k] ?? 0), 0);
  const [first, ...rest] = s.groups;
  const base = [...s.free, ...rest.map((g) => dominating(g, p.capacity.length))].map((it) => ({
    w: scalar(it, mu),
    it,
  }));
  const ratio = (x: { w: number; it: Item }): number => (x.w <= 0 ? Number.POSITIVE_INFINITY : x.it.value / x.w);
  base.sort((a, b) => ratio(b) - ratio(a));
  let best = greedy(base, cap);
  for (const a of first ?? []) {
    const w = scalar(a, mu);
    if (w <= cap + 1e-12) best = Math.max(best, a.value + greedy(base, Math.max(0, cap - w)));
  }
  return best;
}

/** Mixes of two resources tried besides each resource alone (a node full in cpu and memory at once is bounded better). */
const Mixes = [0.2, 0.35, 0.5, 0.65, 0.8];

/** A valid upper bound on the best configuration's value: the least of several surrogate relaxations. */
export function fractionalBound(p: Pricing): number {
  const n = p.capacity.length;
  const s = split(p.items);
  const unit = (k: number, t: number): number => ((p.capacity[k] ?? 0) > 0 ? t / (p.capacity[k] ?? 1) : 0);
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < n; k++)
    best = Math.min(
      best,
      surrogate(
        p,
        s,
        p.capacity.map((_, j) => (j === k ? 1 : 0)),
      ),
    );
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      for (const t of Mixes)
        best = Math.min(
          best,
          surrogate(
            p,
            s,
            p.capacity.map((_, j) => (j === a ? unit(a, t) : j === b ? unit(b, 1 - t) : 0)),
          ),
        );
    }
  }
  return Number.isFinite(best) ? best : p.items.reduce((sum, it) => sum + Math.max(0, it.value) * it.bound, 0);
}

interface Search {
  /** Anti-affinity groups, decided first: which member (or none). */
  groups: Item[][];
  /** Per group: the dominating item standing for it while undecided. */
  stand: Item[];
  /** Free items, in branching order. */
  items: Item[];
  /** Per resource: indices into free items then dominating items, by value per unit of that resource, zero weights first. */
  order: number[][];
  capacity: number[];
  counts: number[];
  chosen: (Item | undefined)[];
  value: number;
  best: { value: number; counts: number[]; chosen: (Item | undefined)[] };
  nodes: number;
  limit: number;
}

/**
 * Per resource, the fractional knapsack over the undecided groups (from `group` on, as their dominating items) and
 * the free items from `from` on, taken greedily in one order by value per unit of that resource.
 */
function remainingBound(s: Search, group: number, from: number): number {
  let best = Number.POSITIVE_INFINITY;
  const nFree = s.items.length;
  for (let k = 0; k < s.capacity.length; k++) {
    let cap = s.capacity[k] ?? 0;
    let total = 0;
    for (const i of s.order[k] ?? []) {
      const it = i < nFree ? s.items[i] : s.stand[i - nFree];
      if (!it || (i < nFree ? i < from : i - nFree < group)) continue;
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

function fits(s: Search, it: Item, n: number): boolean {
  return it.weight.every((w, k) => n * w <= (s.capacity[k] ?? 0) + 1e-12);
}

function maxCount(s: Search, i: number): number {
  const it = s.items[i];
  if (!it) return 0;
  let n = it.bound;
  for (let k = 0; k < s.capacity.length; k++) {
    const w = it.weight[k] ?? 0;
    if (w > 0) n = Math.min(n, Math.floor(((s.capacity[k] ?? 0) + 1e-12) / w));
  }
  return Math.max(0, n);
}

function take(s: Search, it: Item, n: number): void {
  for (let k = 0; k < s.capacity.length; k++) s.capacity[k] = (s.capacity[k] ?? 0) - n * (it.weight[k] ?? 0);
  s.value += n * it.value;
}

function record(s: Search): void {
  if (s.value > s.best.value) s.best = { value: s.value, counts: [...s.counts], chosen: [...s.chosen] };
}

/** Depth-first branch and bound over the free items' counts; false when the node limit cut it short. */
function searchFree(s: Search, i: number): boolean {
  if (++s.nodes > s.limit) return false;
  record(s);
  if (i >= s.items.length || s.value + remainingBound(s, s.groups.length, i) <= s.best.value + 1e-12) return true;
  const it = s.items[i];
  if (!it) return true;
  for (let n = maxCount(s, i); n >= 0; n--) {
    take(s, it, n);
    s.counts[i] = n;
    const done = searchFree(s, i + 1);
    s.counts[i] = 0;
    take(s, it, -n);
    if (!done) return false;
  }
  return true;
}

/** Branches on each anti-affinity group's member (most valuable first, then none), then on the free items. */
function searchGroups(s: Search, g: number): boolean {
  if (g >= s.groups.length) return searchFree(s, 0);
  if (++s.nodes > s.limit) return false;
  if (s.value + remainingBound(s, g, 0) <= s.best.value + 1e-12) return true;
  const options = [...(s.groups[g] ?? [])].sort((a, b) => b.value - a.value);
  for (const it of [...options, undefined]) {
    if (it && !fits(s, it, 1)) continue;
    if (it) take(s, it, 1);
    s.chosen[g] = it;
    const done = searchGroups(s, g + 1);
    s.chosen[g] = undefined;
    if (it) take(s, it, -1);
    if (!done) return false;
  }
  return true;
}

/** Value per unit of resource k (zero-weight items first). */
function ratio(it: Item | undefined, k: number): number {
  if (!it) return 0;
  const w = it.weight[k] ?? 0;
  return w <= 0 ? Number.POSITIVE_INFINITY : it.value / w;
}

/** The best configuration (pod counts per class) and its value; `proven` is false when the search was cut short. */
export function bestConfiguration(
  p: Pricing,
  nodeLimit = 3_000,
): { value: number; counts: Map<number, number>; proven: boolean } {
  const { free, groups } = split(p.items);
  // Most valuable per unit of the scarcest resource first, so good solutions come early and prune the rest.
  const density = (it: Item): number =>
    it.value / Math.max(1e-12, ...it.weight.map((w, k) => w / Math.max(1e-12, p.capacity[k] ?? 0)));
  const items = free.sort((a, b) => density(b) - density(a));
  const stand = groups.map((g) => dominating(g, p.capacity.length));
  const all = [...items, ...stand];
  const order = p.capacity.map((_, k) => all.map((_, i) => i).sort((a, b) => ratio(all[b], k) - ratio(all[a], k)));
  const none = groups.map((): Item | undefined => undefined);
  const s: Search = {
    groups,
    stand,
    items,
    order,
    capacity: [...p.capacity],
    counts: items.map(() => 0),
    chosen: [...none],
    value: 0,
    best: { value: 0, counts: items.map(() => 0), chosen: [...none] },
    nodes: 0,
    limit: nodeLimit,
  };
  const proven = searchGroups(s, 0);
  const counts = new Map<number, number>();
  items.forEach((it, i) => {
    const n = s.best.counts[i] ?? 0;
    if (n > 0) counts.set(it.cls, n);
  });
  for (const it of s.best.chosen) if (it) counts.set(it.cls, (counts.get(it.cls) ?? 0) + 1);
  return { value: s.best.value, counts, proven };
}
