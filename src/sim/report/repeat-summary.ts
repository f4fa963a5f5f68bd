/** What `scenario run --repeat N` prints: one line per seed, then a table over the seeds. */
import type { LaunchGroup, RunReport } from './run-report.js';
import { table } from './terminal.js';

function count(groups: readonly LaunchGroup[]): number {
  return groups.reduce((s, g) => s + g.count, 0);
}

/** `3 c6a.large, 1 c7a.medium`: instances by type, most first. */
export function fleetText(groups: readonly LaunchGroup[], maxTypes = 3): string {
  const byType = new Map<string, number>();
  for (const g of groups) byType.set(g.instanceType, (byType.get(g.instanceType) ?? 0) + g.count);
  const sorted = [...byType].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = sorted.slice(0, maxTypes).map(([t, n]) => `${n} ${t}`);
  if (sorted.length > maxTypes) shown.push(`${sorted.length - maxTypes} more types`);
  return shown.join(', ') || 'none';
}

function firstFailure(r: RunReport): string {
  if (r.error) return `error: ${r.error}`;
  const e = r.expectations.find((x) => !x.passed);
  return e ? `step ${e.step} ${e.description}: ${e.observed}` : 'failed';
}

/** One seed's outcome on one line: verdict, time to all pods running, the fleet left, cost and run time. */
export function seedLine(r: RunReport, html?: string): string {
  const parts = [`seed ${r.seed}`, r.passed ? 'PASSED' : 'FAILED'];
  if (!r.passed) parts.push(firstFailure(r));
  parts.push(
    r.allRunning ? `all running at ${r.allRunning.simSeconds.toFixed(0)} s` : 'pods never all running',
    `fleet ${fleetText(r.fleet)} (${count(r.launched)} launched)`,
    `$${r.costPerHour.toFixed(4)}/h`,
    `${r.simSeconds.toFixed(0)} s sim in ${r.wallSeconds.toFixed(1)} s`,
  );
  if (html) parts.push(`report ${html}`);
  return parts.join('  ');
}

function quantiles(values: readonly number[], digits: number): string[] {
  if (values.length === 0) return ['-', '-', '-'];
  const v = [...values].sort((a, b) => a - b);
  const at = (q: number): number => v[Math.min(v.length - 1, Math.floor(q * v.length))] ?? 0;
  return [v[0] ?? 0, at(0.5), v[v.length - 1] ?? 0].map((n) => n.toFixed(digits));
}

/** The table after all seeds of one scenario: how many passed, each measure's spread, failures and the fleets. */
export function repeatSummary(reports: readonly RunReport[]): string {
  const name = reports[0]?.scenario ?? '';
  const passed = reports.filter((r) => r.passed).length;
  const running = reports.flatMap((r) => (r.allRunning ? [r.allRunning.simSeconds] : []));
  const out = [`${name}: ${passed} of ${reports.length} seeds passed`, ''];
  out.push(
    table(
      ['', 'min', 'median', 'max'],
      [
        [`all pods running, s (${running.length} seeds)`, ...quantiles(running, 0)],
        [
          'nodes at end',
          ...quantiles(
            reports.map((r) => count(r.fleet)),
            0,
          ),
        ],
        [
          'instances launched',
          ...quantiles(
            reports.map((r) => count(r.launched)),
            0,
          ),
        ],
        [
          'cost per hour, $',
          ...quantiles(
            reports.map((r) => r.costPerHour),
            4,
          ),
        ],
        [
          'wall, s',
          ...quantiles(
            reports.map((r) => r.wallSeconds),
            1,
          ),
        ],
      ],
    ),
  );
  const failures = new Map<string, number[]>();
  for (const r of reports.filter((x) => !x.passed)) {
    const e = r.expectations.find((x) => !x.passed);
    const what = r.error ? `error: ${r.error}` : e ? `step ${e.step} ${e.description}` : 'failed';
    failures.set(what, [...(failures.get(what) ?? []), r.seed]);
  }
  if (failures.size > 0) {
    out.push('', 'failed:');
    for (const [what, seeds] of failures) out.push(`  ${what}: seeds ${seeds.join(', ')}`);
  }
  out.push(
    '',
    `fleet at end, all seeds: ${fleetText(
      reports.flatMap((r) => r.fleet),
      6,
    )}`,
  );
  return out.join('\n');
}
