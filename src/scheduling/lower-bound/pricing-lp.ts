/**
 * The exact LP relaxation of a pricing problem, solved by the injected LP solver: maximise Σ value_i·x_i subject to
 * every resource's capacity, at most one pod per hostname anti-affinity group (across its classes), 0 ≤ x_i ≤ bound_i.
 * Every configuration is a feasible point, so its optimum bounds the best configuration's value from above. On large
 * nodes (many pods) it is nearly exact where the surrogate bounds, which try a few mixes of resources only, and the
 * grid, whose units grow with the node, are loose.
 */
import type { Pricing } from './knapsack.js';
import { writeLp, type LpSolve, type Term } from './lp.js';

/** The LP bound (undefined when the solve fails), nudged up against the solver's tolerances. */
export function pricingLpBound(p: Pricing, solveLp: LpSolve): number | undefined {
  const items = p.items.filter((it) => it.value > 1e-12 && it.bound > 0);
  if (items.length === 0) return 0;
  const name = (i: number): string => `x${i}`;
  const rows = p.capacity.map((c, k) => ({
    name: `r${k}`,
    terms: items.flatMap((it, i): Term[] => ((it.weight[k] ?? 0) > 0 ? [[-(it.weight[k] ?? 0), name(i)]] : [])),
    rhs: -c,
  }));
  const groups = new Map<string, number[]>();
  items.forEach((it, i) => {
    if (it.anti !== undefined) groups.set(it.anti, [...(groups.get(it.anti) ?? []), i]);
  });
  let g = 0;
  for (const members of groups.values())
    rows.push({ name: `g${g++}`, terms: members.map((i): Term => [-1, name(i)]), rhs: -1 });
  const upper = new Map(items.map((it, i) => [name(i), it.bound]));
  const r = solveLp(
    writeLp({
      sense: 'Maximize',
      objective: items.map((it, i): Term => [it.value, name(i)]),
      rows: rows.filter((row) => row.terms.length > 0),
      upper,
    }),
  );
  return r.optimal ? r.objective * (1 + 1e-6) + 1e-9 : undefined;
}
