/**
 * The aggregate bound: a price per unit of each resource (α ≥ 0) and a price per node (β ≥ 0) such that no new
 * node is cheaper than what it could hold at those prices (α·capacity_v + β ≤ price_v for every variant v). Then
 * every new node of any placement costs at least α·(its capacity) + β, and the new nodes together must hold the
 * demand that does not fit the existing nodes' free capacity and number at least the nodes a hostname
 * anti-affinity group needs beyond the existing ones, so
 *   cost ≥ Σ_r α_r·max(0, demand_r − free_r) + β·max(0, nodes needed − existing nodes able to host one).
 * The best α, β come from a small LP. It is the configuration LP's dual restricted to duals that price pods by
 * their resources; it needs no convergence, so it backs the column generation where that stalls (many classes).
 */
import { writeLp, type LpSolve, type Term } from './lp.js';

/** The numbers the bound needs, resources scaled alike everywhere. */
export interface AggregateInput {
  /** Per resource: demand of the pending pods minus the existing nodes' free capacity (floored at 0). */
  demand: readonly number[];
  /** New nodes any placement needs at least. */
  nodes: number;
  /** New-node variants: price and capacity per resource. */
  variants: readonly { price: number; capacity: readonly number[] }[];
}

/** The bound and the resource prices behind it (per scaled unit). */
export interface Aggregate {
  bound: number;
  alpha: number[];
}

/** The aggregate bound (0 when the LP fails). */
export function aggregateBound(a: AggregateInput, solveLp: LpSolve): Aggregate {
  const none = { bound: 0, alpha: a.demand.map(() => 0) };
  if (a.variants.length === 0) return none;
  const objective: Term[] = a.demand.map((d, r): Term => [d, `a${r}`]);
  objective.push([a.nodes, 'b']);
  const rows = a.variants.map((v, i) => {
    const terms: Term[] = v.capacity.map((c, r): Term => [-c, `a${r}`]);
    terms.push([-1, 'b']);
    return { name: `v${i}`, terms, rhs: -v.price };
  });
  const r = solveLp(writeLp({ sense: 'Maximize', objective, rows }));
  if (!r.optimal) return none;
  // Recompute from the values, each α and β clipped so every variant's constraint holds exactly (round-off).
  const alpha = a.demand.map((_, k) => Math.max(0, r.values[`a${k}`] ?? 0));
  let beta = Math.max(0, r.values['b'] ?? 0);
  let scale = 1;
  for (const v of a.variants) {
    const charged = v.capacity.reduce((s, c, k) => s + c * (alpha[k] ?? 0), 0) + beta;
    if (charged > v.price && charged > 0) scale = Math.min(scale, v.price / charged);
  }
  beta *= scale;
  const scaled = alpha.map((x) => x * scale);
  return { bound: a.demand.reduce((s, d, k) => s + d * (scaled[k] ?? 0), 0) + a.nodes * beta, alpha: scaled };
}
