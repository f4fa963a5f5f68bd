/**
 * The exact bound for workloads whose pod classes never share a node: classes are joined when some variant can
 * hold pods of both; when every such component is one class, a placement's cost is the sum over components, and a
 * component of n identical pods costs at least the cheapest cover of the pods the existing nodes cannot take by
 * new nodes holding at most `perNode[v]` each — found exactly by dynamic programming over the pod count
 * (cost[m] = min over variants of price + cost[m − held]). Limits and topology are relaxed away, as in the LP.
 * With Karpenter's topology domains, a class under zone spread must also split over the zones (spread-cover.ts).
 */
import { splitCover, type ZoneSplit } from './spread-cover.js';

/** What the bound needs from the problem. */
export interface ClassCoverInput {
  counts: readonly number[];
  variants: readonly { price: number; existing: boolean }[];
  /** perNode[v][i]: most pods of class i one node of variant v holds (0: it cannot). */
  perNode: readonly (readonly number[])[];
  /** Work limit (pod count × variants); beyond it no bound is given. */
  budget?: number;
  /** Per class: how its pods must split over zones (spread-cover.ts), when known. */
  splits?: readonly (ZoneSplit | undefined)[];
}

function find(parent: number[], i: number): number {
  let r = i;
  while (parent[r] !== r) r = parent[r] ?? r;
  parent[i] = r;
  return r;
}

/** True when no variant can hold pods of two classes (every component is a single class). */
function separable(a: ClassCoverInput): boolean {
  const parent = a.counts.map((_, i) => i);
  for (const row of a.perNode) {
    let first: number | undefined;
    row.forEach((n, i) => {
      if (n <= 0) return;
      if (first === undefined) first = i;
      else parent[find(parent, i)] = find(parent, first);
    });
  }
  return a.counts.every((_, i) => find(parent, i) === i);
}

/** A node size: its price and how many pods of the class it holds. */
export interface Size {
  price: number;
  held: number;
}

/** The cheapest cover of every pod count 0..n by nodes of the given sizes and prices (Infinity: none can). */
export function cheapestCovers(n: number, sizes: readonly Size[]): Float64Array {
  const cost = new Float64Array(n + 1);
  for (let m = 1; m <= n; m++) {
    let best = Number.POSITIVE_INFINITY;
    for (const s of sizes) best = Math.min(best, s.price + (cost[Math.max(0, m - s.held)] ?? 0));
    cost[m] = best;
  }
  return cost;
}

/** Only sizes no cheaper one matches matter: cheapest first, a dearer one kept only when it holds more. */
export function usefulSizes(sizes: readonly Size[]): Size[] {
  const sorted = [...sizes].sort((x, y) => x.price - y.price || y.held - x.held);
  return sorted.filter((s, k) => sorted.slice(0, k).every((t) => t.held < s.held));
}

/** The bound, or undefined when some node could mix classes, or the work would exceed the budget. */
export function classCoverBound(a: ClassCoverInput): number | undefined {
  if (!separable(a)) return undefined;
  let total = 0;
  let work = 0;
  for (let i = 0; i < a.counts.length; i++) {
    let n = a.counts[i] ?? 0;
    const sizes: { price: number; held: number }[] = [];
    a.variants.forEach((v, j) => {
      const held = a.perNode[j]?.[i] ?? 0;
      if (held <= 0) return;
      if (v.existing) n -= held;
      else sizes.push({ price: v.price, held });
    });
    if (n <= 0) continue;
    const useful = usefulSizes(sizes);
    if (useful.length === 0) return undefined;
    work += n * useful.length;
    if (work > (a.budget ?? 5_000_000)) return undefined;
    const plain = cheapestCovers(n, useful)[n] ?? 0;
    const split = a.splits?.[i];
    total += Math.max(plain, (split && splitCover(a.counts[i] ?? 0, split)) ?? 0);
  }
  return total;
}
