const binary: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const decimal: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** A quantity's value as a number (approximate for huge values; fine for status totals). */
export function quantityValue(q: string | number): number {
  if (typeof q === 'number') return q;
  const m = /^([+-]?[0-9.]+)([eE][+-]?\d+)?(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?$/.exec(q.trim());
  if (!m) return 0;
  const base = Number(m[1]) * (m[2] ? 10 ** Number(m[2].slice(1)) : 1);
  const suffix = m[3] ?? '';
  return base * (binary[suffix] ?? decimal[suffix] ?? 1);
}

/** Formats a summed resource: cpu in cores (or millicores), memory-like values in Ki, counts as integers. */
function format(name: string, v: number): string {
  if (name === 'cpu') return Number.isInteger(v) ? String(v) : `${Math.round(v * 1000)}m`;
  if (name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-')) return `${Math.round(v / 1024)}Ki`;
  return String(Math.round(v));
}

/** Sums resource lists by name, as a NodePool's `status.resources` reports them. */
export function sumResources(lists: ReadonlyArray<Record<string, string | number>>): Record<string, string> {
  const totals = new Map<string, number>();
  for (const l of lists) for (const [k, q] of Object.entries(l)) totals.set(k, (totals.get(k) ?? 0) + quantityValue(q));
  return Object.fromEntries([...totals].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, format(k, v)]));
}
