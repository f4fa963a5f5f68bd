/**
 * The LP/MIP solver the lower bound needs, injected so this module stays pure (the benchmark passes HiGHS, loaded
 * from the `highs` package), and a writer of CPLEX LP text, the format HiGHS reads.
 */

/** What a solve returned: status, objective, column values by name, and row duals in row order. */
export interface LpResult {
  optimal: boolean;
  objective: number;
  values: Record<string, number>;
  rowDuals: number[];
}

/** Solves an LP (or, with `integer` names, a MIP) given as CPLEX LP text. */
export type LpSolve = (lp: string) => LpResult;

/** A linear term: coefficient times variable name. */
export type Term = [coef: number, name: string];

/** A model in the shape the writer needs: every row is `terms >= rhs`. */
export interface LpModel {
  sense: 'Minimize' | 'Maximize';
  objective: Term[];
  rows: { name: string; terms: Term[]; rhs: number }[];
  /** Upper bounds (lower bounds are all 0). */
  upper?: Map<string, number>;
  integer?: string[];
}

function num(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toPrecision(15).replace(/\.?0+(e|$)/, '$1');
}

function expr(terms: readonly Term[]): string {
  if (terms.length === 0) return '0 zero';
  return terms.map(([c, n], i) => `${c < 0 ? '-' : i === 0 ? '' : '+'} ${num(Math.abs(c))} ${n}`).join(' ');
}

/** Writes `m` as CPLEX LP text. */
export function writeLp(m: LpModel): string {
  const lines = [m.sense, ` obj: ${expr(m.objective)}`, 'Subject To'];
  for (const r of m.rows) lines.push(` ${r.name}: ${expr(r.terms)} >= ${num(r.rhs)}`);
  lines.push('Bounds');
  const names = new Set<string>([
    ...m.objective.map(([, n]) => n),
    ...m.rows.flatMap((r) => r.terms.map(([, n]) => n)),
  ]);
  for (const n of names) {
    const u = m.upper?.get(n);
    lines.push(u === undefined ? ` ${n} >= 0` : ` 0 <= ${n} <= ${num(u)}`);
  }
  if (m.integer?.length) lines.push('General', ` ${m.integer.join(' ')}`);
  lines.push('End');
  return lines.join('\n');
}
