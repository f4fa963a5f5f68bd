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
  /** Whether weights are whole grains: the grid is then exact in its resources. */
  exact: boolean;
  dims: number[];
  units: number[];
  stride: number;
  size: number;
}

function units(it: Item, g: Grid): number[] {
  return g.dims.map((k, j) => Math.floor((it.weight[k] ?? 0) / (g.units[j] ?? 1) + Epsilon));
}

/**
 * Adds one 0/1 item (weight in grid units) to `layer`, reading the best values without it from `from`; with `mark`,
 * sets the bit of every cell the item improved (for reading the configuration back).
 */
function addItem(
  g: Grid,
  layers: { layer: Float64Array; from: Float64Array; mark?: Uint32Array },
  w: readonly number[],
  value: number,
): void {
  const [w1 = 0, w2 = 0] = w;
  const { layer, from, mark } = layers;
  const c2max = g.stride - 1;
  const c1max = g.size / g.stride - 1;
  for (let c1 = c1max; c1 >= w1; c1--) {
    for (let c2 = c2max; c2 >= w2; c2--) {
      const v = (from[(c1 - w1) * g.stride + (c2 - w2)] ?? 0) + value;
      const at = c1 * g.stride + c2;
      if (v > (layer[at] ?? 0)) {
        layer[at] = v;
        if (mark) mark[at >>> 5] = (mark[at >>> 5] ?? 0) | (1 << (at & 31));
      }
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

/**
 * The grid over the binding resources. Without a cell budget: K units each (one resource alone gets K² units). With
 * one, and every weight a whole number of its resource's grain: units of whole grains, one grain when the node's
 * capacity in grains fits the budget (the grid is then exact in those resources: a pod weighs exactly its grains),
 * else the fewest grains per unit that fit, coarsening the resource with more units first.
 */
function grid(p: Pricing, dims: readonly number[], cells: number): Grid {
  const grains = dims.map((d) => p.grain?.[d] ?? 0);
  if (cells > 0 && grains.every((g) => g > 0)) {
    const per = dims.map(() => 1);
    // The node holds floor(capacity/u + n·ε) units, n ≤ 1000 pods: every set that fits the node fits the grid.
    const count = (j: number): number =>
      Math.floor((p.capacity[dims[j] ?? 0] ?? 0) / ((grains[j] ?? 1) * (per[j] ?? 1)) + 1000 * Epsilon);
    const size = (): number => dims.reduce((a, _, j) => a * (count(j) + 1), 1);
    while (size() > cells) {
      const j = dims.length > 1 && count(1) > count(0) ? 1 : 0;
      per[j] = Math.max((per[j] ?? 1) + 1, Math.ceil((per[j] ?? 1) * 1.1));
    }
    const k = [count(0), dims.length > 1 ? count(1) : 0];
    const stride = (k[1] ?? 0) + 1;
    return {
      exact: per.every((x) => x === 1),
      dims: [...dims],
      units: dims.map((_, j) => (grains[j] ?? 1) * (per[j] ?? 1)),
      stride,
      size: ((k[0] ?? 0) + 1) * stride,
    };
  }
  const k = dims.length === 1 ? [Units * Units, 0] : [Units, Units];
  // The node holds floor(capacity/u + n·ε) = K units while n·ε < 1 (n ≤ 1000 pods here).
  const stride = (k[1] ?? 0) + 1;
  return {
    exact: false,
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

/**
 * The grid bound (undefined when no resource binds: the fractional bounds are exact then). `cells` caps the exact
 * grid's size (its cost is cells × items); 0 uses the K × K grid.
 */
export function gridBound(p: Pricing, cells = 0): number | undefined {
  const valued = p.items.filter((it) => it.value > 1e-12 && it.bound > 0);
  const dims = bindingResources(p, valued);
  if (dims.length === 0) return undefined;
  const g = grid(p, dims, cells);
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

/** The exact grid's best configuration (class counts) and its value. */
export interface GridBest {
  /** The optimum over the grid's two resources: an upper bound on the best configuration's value. */
  value: number;
  counts: Map<number, number>;
  /** Whether the counts also fit the node's other resources: then they are the best configuration. */
  fits: boolean;
}

/**
 * The best configuration on the grid of at most `cells` cells (dynamic programming over the two binding resources),
 * read back from marks; undefined when no resource binds or a second anti-affinity group makes the grid's items
 * stand-ins rather than pods. Its value bounds the best configuration's (weights only round down); when its counts
 * fit the node's real capacity, they reach that bound and are the best configuration.
 */
type Pass = { it: Item; n: number; w: number[] };

/** A layer of the dynamic programme: best values per cell and, per pass, the cells that pass improved. */
interface Layer {
  values: Float64Array;
  marks: Uint32Array[];
}

function runLayer(g: Grid, passes: readonly Pass[], init: Float64Array): Layer {
  const words = (g.size >>> 5) + 1;
  const marks = passes.map((ps) => {
    const mark = new Uint32Array(words);
    addItem(g, { layer: init, from: init, mark }, ps.w, ps.it.value * ps.n);
    return mark;
  });
  return { values: init, marks };
}

/** One member of `group` per cell (the most valuable that fits), and which one. */
function memberLayer(g: Grid, group: readonly Item[]): { start: Float64Array; member: Int32Array } {
  const start = new Float64Array(g.size);
  const member = new Int32Array(g.size).fill(-1);
  group.forEach((a, ai) => {
    const [w1 = 0, w2 = 0] = units(a, g);
    for (let c1 = w1; c1 < g.size / g.stride; c1++)
      for (let c2 = w2; c2 < g.stride; c2++) {
        const at = c1 * g.stride + c2;
        if (a.value > (start[at] ?? 0)) {
          start[at] = a.value;
          member[at] = ai;
        }
      }
  });
  return { start, member };
}

/** Reads the passes taken back from the top cell; returns the counts and the cell left. */
function readBack(g: Grid, passes: readonly Pass[], layer: Layer): { counts: Map<number, number>; at: number } {
  const counts = new Map<number, number>();
  let at = g.size - 1;
  for (let j = passes.length - 1; j >= 0; j--) {
    const ps = passes[j];
    if (!ps || (((layer.marks[j]?.[at >>> 5] ?? 0) >>> (at & 31)) & 1) === 0) continue;
    counts.set(ps.it.cls, (counts.get(ps.it.cls) ?? 0) + ps.n);
    at -= (ps.w[0] ?? 0) * g.stride + (ps.w[1] ?? 0);
  }
  return { counts, at };
}

/**
 * The best configuration on the grid of at most `cells` cells (dynamic programming over the two binding resources),
 * read back from marks; undefined when no resource binds or a second anti-affinity group makes the grid's items
 * stand-ins rather than pods. Its value bounds the best configuration's (weights only round down); when its counts
 * fit the node's real capacity, they reach that bound and are the best configuration.
 */
export function gridBest(p: Pricing, cells: number): GridBest | undefined {
  const valued = p.items.filter((it) => it.value > 1e-12 && it.bound > 0);
  const dims = bindingResources(p, valued);
  if (dims.length === 0) return undefined;
  const g = grid(p, dims, cells);
  const { free, first } = splitGroups(p, valued);
  if (free.some((it) => it.cls < 0)) return undefined;
  const passes = free.flatMap((it) => copies(it.bound).map((n) => ({ it, n, w: units(it, g).map((x) => x * n) })));
  const none = runLayer(g, passes, new Float64Array(g.size));
  // The taken layer starts from one member of the first group (which one, per cell), then adds the free items.
  const members = first ? memberLayer(g, first) : undefined;
  const taken = members ? runLayer(g, passes, members.start) : undefined;
  const top = g.size - 1;
  const noneValue = none.values[top] ?? 0;
  const takenValue = taken?.values[top] ?? 0;
  if (!taken || !members || !first || takenValue <= noneValue) {
    const { counts } = readBack(g, passes, none);
    return { value: noneValue, counts, fits: fitsNode(p, counts) };
  }
  const { counts, at } = readBack(g, passes, taken);
  const a = first[members.member[at] ?? -1];
  if (a) counts.set(a.cls, (counts.get(a.cls) ?? 0) + 1);
  return { value: takenValue, counts, fits: fitsNode(p, counts) };
}

/** Whether the counts fit the node's real capacity in every resource. */
function fitsNode(p: Pricing, counts: ReadonlyMap<number, number>): boolean {
  const byCls = new Map(p.items.map((it) => [it.cls, it]));
  return p.capacity.every(
    (c, k) => [...counts].reduce((sum, [cls, n]) => sum + n * (byCls.get(cls)?.weight[k] ?? 0), 0) <= c + 1e-9,
  );
}
