/**
 * A tighter upper bound on the best configuration's value than the fractional ones, for nodes the branch and bound
 * could not finish: an integer knapsack over two resources on a grid. Each resource r keeps its capacity in K units
 * of u = capacity/K; a pod weighs floor(w/u + ε) units and the node holds floor(capacity/u + n·ε) (n: most pods per
 * node), so every set of pods that fits the node fits the grid (Σ floor(w/u + ε) ≤ Σ w/u + n·ε ≤ capacity/u + n·ε) and
 * the grid's optimum bounds the node's from above; other resources are dropped, which only relaxes further. Pod counts
 * stay whole, which the fractional bounds give up. The largest hostname anti-affinity group is exact (a layer for
 * "a member taken"); any other group becomes its dominating item (largest value, least weight), as in knapsack.ts.
 */
import type { Pricing } from './knapsack.js';

type Item = Pricing['items'][number];

const Epsilon = 1e-9;
/** Grid units per resource: (K+1)² states per layer. */
const Units = 128;

/** The two resources the items weigh most on relative to the node, the ones that bind. */
function bindingResources(p: Pricing, items: readonly Item[]): number[] {
  const load = p.capacity.map((c, k) =>
    c > 0 ? items.reduce((s, it) => s + it.bound * (it.weight[k] ?? 0), 0) / c : 0,
  );
  return load
    .map((l, k) => ({ l, k }))
    .filter((x) => x.l > 0)
    .sort((a, b) => b.l - a.l)
    .slice(0, 2)
    .map((x) => x.k);
}

interface Grid {
  dims: number[];
  units: number[];
  stride: number;
  size: number;
}

function units(it: Item, g: Grid): number[] {
  return g.dims.map((k, j) => Math.floor((it.weight[k] ?? 0) / (g.units[j] ?? 1) + Epsilon));
}

/** Adds one 0/1 item (weight in grid units) to `layer`, reading the best values without it from `from`. */
function addItem(
  g: Grid,
  layers: { layer: Float64Array; from: Float64Array },
  w: readonly number[],
  value: number,
): void {
  const [w1 = 0, w2 = 0] = w;
  const { layer, from } = layers;
  const c2max = g.stride - 1;
  const c1max = g.size / g.stride - 1;
  for (let c1 = c1max; c1 >= w1; c1--) {
    for (let c2 = c2max; c2 >= w2; c2--) {
      const v = (from[(c1 - w1) * g.stride + (c2 - w2)] ?? 0) + value;
      const at = c1 * g.stride + c2;
      if (v > (layer[at] ?? 0)) layer[at] = v;
    }
  }
}

/** Binary splitting: a class bounded by b becomes 0/1 items of 1, 2, 4, … copies (summing to b). */
function copies(bound: number): number[] {
  const out: number[] = [];
  let left = bound;
  for (let k = 1; left > 0; k *= 2) {
    const n = Math.min(k, left);
    out.push(n);
    left -= n;
  }
  return out;
}

/** The grid over the binding resources: K units each (one resource alone gets K² units). */
function grid(p: Pricing, dims: readonly number[]): Grid {
  const k = dims.length === 1 ? [Units * Units, 0] : [Units, Units];
  // The node holds floor(capacity/u + n·ε) = K units while n·ε < 1 (n ≤ 1000 pods here).
  const stride = (k[1] ?? 0) + 1;
  return {
    dims: [...dims],
    units: dims.map((d, j) => (p.capacity[d] ?? 0) / (k[j] ?? 1)),
    stride,
    size: ((k[0] ?? 0) + 1) * stride,
  };
}

/** Free items and the largest anti-affinity group; other groups become their dominating items. */
function splitGroups(p: Pricing, valued: readonly Item[]): { free: Item[]; first: Item[] | undefined } {
  const groups = new Map<string, Item[]>();
  const free: Item[] = [];
  for (const it of valued) {
    if (it.anti === undefined) free.push(it);
    else groups.set(it.anti, [...(groups.get(it.anti) ?? []), it]);
  }
  const [first, ...rest] = [...groups.values()].sort((a, b) => b.length - a.length);
  for (const group of rest) {
    free.push({
      cls: -1,
      bound: 1,
      value: Math.max(...group.map((it) => it.value)),
      anti: undefined,
      weight: p.capacity.map((_, r) => Math.min(...group.map((it) => it.weight[r] ?? 0))),
    });
  }
  return { free, first };
}

/** The grid bound (undefined when no resource binds: the fractional bounds are exact then). */
export function gridBound(p: Pricing): number | undefined {
  const valued = p.items.filter((it) => it.value > 1e-12 && it.bound > 0);
  const dims = bindingResources(p, valued);
  if (dims.length === 0) return undefined;
  const g = grid(p, dims);
  const { free, first } = splitGroups(p, valued);
  const none = new Float64Array(g.size);
  const taken = new Float64Array(g.size);
  for (const a of first ?? []) addItem(g, { layer: taken, from: none }, units(a, g), a.value);
  for (const it of free) {
    const w = units(it, g);
    for (const n of copies(it.bound)) {
      const wn = w.map((x) => x * n);
      addItem(g, { layer: none, from: none }, wn, it.value * n);
      if (first) addItem(g, { layer: taken, from: taken }, wn, it.value * n);
    }
  }
  return Math.max(none[g.size - 1] ?? 0, taken[g.size - 1] ?? 0);
}
