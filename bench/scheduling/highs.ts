/** HiGHS (the `highs` package, WebAssembly) as the lower bound's LP/MIP solver. */
import * as highsModule from 'highs';
import type { LpSolve } from '../../src/scheduling/lower-bound/index.js';

interface HighsColumn {
  Primal?: number;
}
interface HighsRow {
  Dual?: number;
}
interface Highs {
  solve(
    lp: string,
    options: Record<string, number | boolean | string>,
  ): { Status: string; ObjectiveValue: number; Columns: Record<string, HighsColumn>; Rows: HighsRow[] };
}
type Loader = () => Promise<Highs>;

// The package ships an ES module whose default export is the loader, typed as CommonJS; accept either shape.
function loader(): Loader {
  const mod: unknown = highsModule;
  const first = (mod as { default?: unknown }).default;
  if (typeof first === 'function') return first as Loader;
  const second = (first as { default?: unknown } | undefined)?.default;
  if (typeof second === 'function') return second as Loader;
  throw new Error('cannot find the highs loader');
}

let loaded: Promise<LpSolve> | undefined;

/** Loads HiGHS once and returns an LpSolve over it. */
export function loadHighs(): Promise<LpSolve> {
  loaded ??= loader()().then((h): LpSolve => (lp) => {
    // A time limit keeps a hard MIP from stalling the suite: it then reports no optimum, and the bound skips it.
    const r = h.solve(lp, { mip_rel_gap: 0, output_flag: false, time_limit: 20 });
    const optimal = r.Status === 'Optimal';
    const values: Record<string, number> = {};
    if (optimal) for (const [name, c] of Object.entries(r.Columns)) values[name] = c.Primal ?? 0;
    return {
      optimal,
      objective: optimal ? r.ObjectiveValue : Number.NaN,
      values,
      rowDuals: optimal ? r.Rows.map((row) => row.Dual ?? 0) : [],
    };
  });
  return loaded;
}
