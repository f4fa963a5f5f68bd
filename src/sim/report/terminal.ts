/** The terminal summary of a run: expectations, launches, cost, timing and the warnings Tenon emitted. */
import type { LaunchGroup, RunReport } from './run-report.js';

/** A plain-text table: a header row, a rule, then the rows, columns padded to their widest cell. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Instances launched during the run beside those still up at its end, by type, zone and capacity type. */
function instanceRows(r: RunReport): string[][] {
  const key = (g: LaunchGroup): string => `${g.instanceType}/${g.zone}/${g.capacityType}`;
  const atEnd = new Map(r.fleet.map((g) => [key(g), g.count]));
  return r.launched.map((g) => [
    g.instanceType,
    g.zone,
    g.capacityType,
    String(g.count),
    String(atEnd.get(key(g)) ?? 0),
  ]);
}

/** Renders the summary as plain text. */
export function renderSummary(r: RunReport): string {
  const out: string[] = [];
  out.push(`scenario ${r.scenario} (seed ${r.seed}): ${r.passed ? 'PASSED' : 'FAILED'}`);
  if (r.error) out.push(`error: ${r.error}`);
  out.push(
    '',
    table(
      ['step', 'expectation', 'result', 'observed'],
      r.expectations.map((e) => [String(e.step), e.description, e.passed ? 'pass' : 'FAIL', e.observed]),
    ),
  );
  const instances = instanceRows(r);
  if (instances.length > 0) out.push('', table(['instance type', 'zone', 'capacity', 'launched', 'at end'], instances));
  out.push('', `cost per hour: $${r.costPerHour.toFixed(4)}`);
  if (r.allRunning)
    out.push(
      `all pods running after ${r.allRunning.simSeconds.toFixed(0)} s simulated (${r.allRunning.wallSeconds.toFixed(2)} s wall)`,
    );
  out.push(`ran ${r.simSeconds.toFixed(0)} s simulated in ${r.wallSeconds.toFixed(2)} s wall`);
  const warnings = new Map<string, number>();
  // Tenon's own warnings: what the controllers have to say (the simulated world's chatter is in the HTML timeline).
  for (const e of r.events)
    if (e.type === 'Warning' && e.source === 'karpenter')
      warnings.set(`${e.reason}: ${e.message}`, (warnings.get(`${e.reason}: ${e.message}`) ?? 0) + 1);
  if (warnings.size > 0) {
    out.push('', 'warnings from Tenon:');
    for (const [w, n] of [...warnings].slice(0, 20)) out.push(`  ${n > 1 ? `${n}x ` : ''}${w}`);
  }
  return out.join('\n');
}
