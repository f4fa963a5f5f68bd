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
  return pricingLp(p, solveLp)?.bound;
}

/**
 * The LP bound and a configuration read from the LP's solution: each class's count rounded down (still within every
 * capacity, bound and group limit), on large nodes close to the best.
 */
export function pricingLp(
  p: Pricing,
  solveLp: LpSolve,
): { bound: number; counts: Map<number, number>; value: number } | undefined {
  const items = p.items.filter((it) => it.value > 1e-12 && it.bound > 0);
  if (items.length === 0) return { bound: 0, counts: new Map(), value: 0 };
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
  if (!r.optimal) return undefined;
  const counts = new Map<number, number>();
  let value = 0;
  items.forEach((it, i) => {
    // Round-off can leave a whole count just below its integer: a small nudge keeps it; the check below rejects
    // any overfill that causes.
    const n = Math.floor((r.values[name(i)] ?? 0) + 1e-9);
    if (n > 0) {
      counts.set(it.cls, n);
      value += n * it.value;
    }
  });
  const fits = p.capacity.every(
    (c, k) => items.reduce((s, it) => s + (counts.get(it.cls) ?? 0) * (it.weight[k] ?? 0), 0) <= c + 1e-12,
  );
  return {
    bound: r.objective * (1 + 1e-6) + 1e-9,
    counts: fits ? counts : new Map(),
    value: fits ? value : 0,
  };
}
