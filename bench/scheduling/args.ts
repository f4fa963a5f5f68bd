/** Flag parsing shared by the scheduling and cost suites (`--sizes 1,50`, `--workload a,b`, `--seed 7`, `--json`). */

/** Parsed flags. */
export interface BenchArgs {
  json: boolean;
  help: boolean;
  quick: boolean;
  sizes: number[] | undefined;
  workloads: string[] | undefined;
  seed: number;
}

function list(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Parses the flags; throws on an unknown one so typos do not silently run the default. */
export function parseArgs(args: readonly string[]): BenchArgs {
  const out: BenchArgs = { json: false, help: false, quick: false, sizes: undefined, workloads: undefined, seed: 42 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => inline ?? args[++i] ?? '';
    if (flag === '--json') out.json = true;
    else if (flag === '--help' || flag === '-h') out.help = true;
    else if (flag === '--quick') out.quick = true;
    else if (flag === '--sizes') out.sizes = list(value()).map(Number);
    else if (flag === '--workload' || flag === '--workloads') out.workloads = list(value());
    else if (flag === '--seed') out.seed = Number(value());
    else throw new Error(`unknown flag ${a}`);
  }
  if (out.sizes?.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--sizes takes positive integers');
  if (!Number.isFinite(out.seed)) throw new Error('--seed takes a number');
  return out;
}

/** Prints rows as an aligned table. */
export function printTable(rows: readonly Record<string, string | number>[], write: (s: string) => void): void {
  const first = rows[0];
  if (!first) return;
  const cols = Object.keys(first);
  const cell = (v: string | number | undefined): string =>
    typeof v === 'number' ? String(Number.isInteger(v) ? v : v.toFixed(3)) : (v ?? '');
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]): string => vals.map((v, i) => v.padStart(widths[i] ?? 0)).join('  ');
  write(`${line(cols)}\n`);
  for (const r of rows) write(`${line(cols.map((c) => cell(r[c])))}\n`);
}
