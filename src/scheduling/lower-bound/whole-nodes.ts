/**
 * Whole nodes: a small integer programme for workloads with few pod classes. y_v is how many nodes of variant v a
 * placement launches (an integer; existing nodes at most one, free) and n_vi how many pods of class i they hold
 * together:
 *   minimise Σ price_v·y_v  such that  Σ_v n_vi ≥ count_i,  Σ_i w_ir·n_vi ≤ capacity_vr·y_v  (every resource r),
 *   n_vi ≤ perNode_vi·y_v,  Σ_{i in an anti-affinity group} n_vi ≤ y_v,  NodePool limits on Σ y_v·capacity_v.
 * Every valid placement is a feasible point (count its nodes and pods per variant), so the optimum is a lower bound.
 * Capacity is pooled over a variant's nodes (no per-node packing), but node counts are whole, which the
 * configuration LP gives up: with few classes that integrality is most of the gap. Solved to optimality by the
 * injected MIP solver (no bound when it fails or the problem is too big to try).
 */
import { writeLp, type LpModel, type LpSolve, type Term } from './lp.js';

/** The problem in numbers: resources scaled alike everywhere. */
export interface WholeNodesInput {
  counts: readonly number[];
  /** weights[i][r]: class i's request of resource r. */
  weights: readonly (readonly number[])[];
  /** Per class: its hostname anti-affinity group, if any. */
  anti: readonly (string | undefined)[];
  variants: readonly { price: number; existing: boolean; capacity: readonly number[] }[];
  /** perNode[v][i]: most pods of class i one node of v holds (0: none). */
  perNode: readonly (readonly number[])[];
  /** NodePool limits: capacity left, and what one node of each variant uses of it. */
  limits: readonly { remaining: number; use: readonly number[] }[];
}

/** Most classes and variants tried (beyond them the MIP may take too long). */
const MaxClasses = 6;
const MaxVariants = 800;

function capacityRows(a: WholeNodesInput, v: number, rows: LpModel['rows']): void {
  const variant = a.variants[v];
  if (!variant) return;
  const held = a.counts.map((_, i) => i).filter((i) => (a.perNode[v]?.[i] ?? 0) > 0);
  if (held.length === 0) return;
  variant.capacity.forEach((cap, r) => {
    const terms: Term[] = held.flatMap((i): Term[] =>
      (a.weights[i]?.[r] ?? 0) > 0 ? [[-(a.weights[i]?.[r] ?? 0), `n${v}_${i}`]] : [],
    );
    if (terms.length > 0) rows.push({ name: `cap${v}_${r}`, terms: [[cap, `y${v}`], ...terms], rhs: 0 });
  });
  for (const i of held)
    rows.push({
      name: `per${v}_${i}`,
      terms: [
        [a.perNode[v]?.[i] ?? 0, `y${v}`],
        [-1, `n${v}_${i}`],
      ],
      rhs: 0,
    });
  const groups = new Map<string, number[]>();
  for (const i of held) {
    const g = a.anti[i];
    if (g !== undefined) groups.set(g, [...(groups.get(g) ?? []), i]);
  }
  let k = 0;
  for (const members of groups.values()) {
    if (members.length > 1)
      rows.push({
        name: `anti${v}_${k++}`,
        terms: [[1, `y${v}`], ...members.map((i): Term => [-1, `n${v}_${i}`])],
        rhs: 0,
      });
  }
}

/** The whole-nodes bound, or undefined when not tried or not solved. */
export function wholeNodesBound(a: WholeNodesInput, solveLp: LpSolve): number | undefined {
  if (a.counts.length === 0 || a.counts.length > MaxClasses || a.variants.length > MaxVariants) return undefined;
  const rows: LpModel['rows'] = a.counts.map((count, i) => ({
    name: `c${i}`,
    terms: a.variants.flatMap((_, v): Term[] => ((a.perNode[v]?.[i] ?? 0) > 0 ? [[1, `n${v}_${i}`]] : [])),
    rhs: count,
  }));
  if (rows.some((r) => r.terms.length === 0)) return undefined;
  a.variants.forEach((_, v) => capacityRows(a, v, rows));
  a.limits.forEach((l, k) =>
    rows.push({
      name: `l${k}`,
      terms: a.variants.flatMap((_, v): Term[] => ((l.use[v] ?? 0) > 0 ? [[-(l.use[v] ?? 0), `y${v}`]] : [])),
      rhs: -l.remaining,
    }),
  );
  const upper = new Map(a.variants.flatMap((v, i): [string, number][] => (v.existing ? [[`y${i}`, 1]] : [])));
  const objective = a.variants.map((v, i): Term => [v.price, `y${i}`]);
  const r = solveLp(
    writeLp({
      sense: 'Minimize',
      objective,
      rows: rows.filter((row) => row.terms.length > 0),
      upper,
      integer: a.variants.map((_, i) => `y${i}`),
    }),
  );
  // Solved to optimality (zero relative gap); the absolute gap and round-off are taken off.
  return r.optimal ? Math.max(0, r.objective * (1 - 1e-7) - 1e-6) : undefined;
}
