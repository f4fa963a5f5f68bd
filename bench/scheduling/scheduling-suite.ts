/**
 * `npm run bench -- scheduling`: Karpenter's scheduling benchmark re-created (see karpenter-workload.ts) — the diverse
 * pod mix over the fake 400-type catalog and one NodePool — timing Tenon's solve and checking every result with the
 * independent placement checker.
 */
import { checkPlacement, solve, SolveCache, type SchedulingInput } from '../../src/scheduling/index.js';
import { parseArgs, printTable } from './args.js';
import { runRemoval, type RemovalRow } from './removal-bench.js';
import { benchmarkNodePool, diverseKinds, fakeInstanceTypes, makeDiversePods } from './karpenter-workload.js';

/** Karpenter's benchmark sizes. */
export const defaultSizes = [1, 50, 100, 500, 1000, 1500, 2000, 5000, 10000, 20000];
const quickSizes = [1, 50, 100, 500];
const workloads: Record<string, typeof diverseKinds> = { 'karpenter-diverse': diverseKinds };

/** One JSON line of the suite. */
export interface SchedulingRow {
  suite: 'scheduling';
  workload: string;
  pods: number;
  seconds: number;
  podsPerSecond: number;
  nodeClaims: number;
  violations: number;
  unscheduled: number;
}

const help = `npm run bench -- scheduling [--sizes 1,50,...] [--workload karpenter-diverse|removal] [--seed N] [--quick] [--json]

Karpenter's scheduling benchmark (scheduling_benchmark_test.go) re-created: makeDiversePods(N) — equal shares of
generic pods, zone and hostname topology spread (maxSkew 1, DoNotSchedule, selector my-label=<random>, independent of
the pod's own label), zone pod self-affinity and hostname anti-affinity; CPU 100m..1500m, memory 100Mi..4Gi — over
fake.InstanceTypes(400) (type i: i+1 vCPU, 2(i+1) GiB, 10(i+1) pods, price 0.1/vCPU + 0.1/GB, spot in 2 zones and
on-demand in 3) and one NodePool with limits (as Karpenter v1.15's benchmark).
Each size is solved (repeated until 0.3 s have passed, at most 20 times, the mean reported) and the first result is
checked by checkPlacement; "violations" counts what the checker found, judged both with kube-scheduler's topology
domains and with Karpenter's (every zone a NodePool offers counts; a hostname spread's minimum is 0). "unscheduled"
counts pods left unplaced; Karpenter's benchmark places every one of these pods, so any unscheduled pod or violation
fails the run (exit status 1). "npm run bench -- peer" compares with Karpenter's own scheduler.
Default sizes: ${defaultSizes.join(',')}; --quick: ${quickSizes.join(',')}.

--workload removal times disruption's removal simulation instead (removal-bench.ts): --sizes are node counts
(default 1000); the row gives msPerCandidate over up to 200 single-node candidates (goal: about 1 ms at 1,000 nodes).
`;

/** Runs one size: times the solve and checks the result. */
export function runScheduling(opts: { pods: number; workload: string; seed: number }): SchedulingRow {
  const kinds = workloads[opts.workload];
  if (!kinds) throw new Error(`unknown workload ${opts.workload}; known: ${Object.keys(workloads).join(', ')}`);
  const input: SchedulingInput = {
    pods: makeDiversePods(opts.pods, { seed: opts.seed, kinds }),
    nodePools: [benchmarkNodePool()],
    instanceTypes: fakeInstanceTypes(400),
  };
  let runs = 0;
  let total = 0;
  let first: ReturnType<typeof solve> | undefined;
  // One cache across the repeats, as the provisioner keeps one across its passes.
  const cache = new SolveCache();
  while (runs === 0 || (total < 0.3 && runs < 20)) {
    const t0 = performance.now();
    const r = solve(input, undefined, cache);
    total += (performance.now() - t0) / 1000;
    first ??= r;
    runs++;
  }
  const seconds = total / runs;
  const result = first ?? solve(input);
  return {
    suite: 'scheduling',
    workload: opts.workload,
    pods: opts.pods,
    seconds: Number(seconds.toFixed(4)),
    podsPerSecond: Math.round(opts.pods / seconds),
    nodeClaims: result.newNodeClaims.length,
    violations: checkPlacement(input, result).length + checkPlacement(input, result, { domains: 'karpenter' }).length,
    unscheduled: result.unplaced.length,
  };
}

/** The suite entry point. */
export async function schedulingSuite(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  if (args.help) {
    process.stdout.write(help);
    return;
  }
  const sizes = args.sizes ?? (args.quick ? quickSizes : defaultSizes);
  const rows: (SchedulingRow | RemovalRow)[] = [];
  for (const workload of args.workloads ?? ['karpenter-diverse']) {
    if (workload === 'removal') {
      for (const nodes of args.sizes ?? [1000]) {
        const row = runRemoval({ nodes, seed: args.seed });
        rows.push(row);
        if (args.json) process.stdout.write(`${JSON.stringify(row)}\n`);
      }
      continue;
    }
    for (const pods of sizes) {
      const row = runScheduling({ pods, workload, seed: args.seed });
      rows.push(row);
      if (args.json) process.stdout.write(`${JSON.stringify(row)}\n`);
    }
  }
  if (!args.json)
    printTable(
      rows.map(({ suite: _s, ...r }) => r),
      (s) => process.stdout.write(s),
    );
  const failed = rows.filter((r): r is SchedulingRow => 'unscheduled' in r && (r.unscheduled > 0 || r.violations > 0));
  if (failed.length > 0) {
    process.stderr.write(
      `FAIL: ${failed.map((r) => `${r.pods} pods`).join(', ')}: pods left unscheduled or constraints broken\n`,
    );
    process.exitCode = 1;
  }
  await Promise.resolve();
}
