/**
 * `npm run bench -- peer`: Tenon's solver and Karpenter's own scheduler (the Go program in this folder, built once and
 * cached) on identical inputs, interleaved over several rounds.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { solve, type SchedulingInput } from '../../src/scheduling/index.js';
import { printTable } from '../scheduling/args.js';
import { peerArgs, peerHelp } from './peer-args.js';
import { peerBinary } from './peer-binary.js';
import { defaultDiverseSizes, peerWorkloads, type PeerWorkload } from './peer-workloads.js';

/** One JSON line of the suite: the keys issue 31 names, medians over rounds, ratios Tenon over Karpenter. */
export interface PeerRow {
  suite: 'peer';
  workload: string;
  pods: number;
  karpenterPodsPerSecond: number;
  tenonPodsPerSecond: number;
  karpenterPodsPerCpuSecond: number;
  tenonPodsPerCpuSecond: number;
  cpuRatio: number;
  wallRatio: number;
  karpenterNodeClaims: number;
  tenonNodeClaims: number;
  karpenterCost: number;
  tenonCost: number;
  karpenterUnscheduled: number;
  tenonUnscheduled: number;
}

/** One side's answer in one round. */
export interface SideRun {
  seconds: number;
  cpuSeconds: number;
  nodeClaims: number;
  cost: number;
  unscheduled: number;
}

/** What the Go program prints. */
interface PeerOutput {
  pods: number;
  nodeClaims: unknown[];
  cost: number;
  unscheduled: number;
  errors?: string[];
  solveSeconds: number;
  solveCpuSeconds: number;
}

/** Below this many pods the Go side solves once untimed first (heap growth); larger ones take long enough alone. */
const warmupBelowPods = 2000;

/** Runs Karpenter's scheduler on the workload file (a warm-up solve in the process for small batches, then the timed one). */
export function runKarpenter(bin: string, file: string, w: Pick<PeerWorkload, 'preferencePolicy' | 'pods'>): SideRun {
  const warmup = w.pods < warmupBelowPods ? '1' : '0';
  const out = execFileSync(bin, ['-preference-policy', w.preferencePolicy, '-warmup', warmup, file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const r = JSON.parse(out) as PeerOutput;
  return {
    seconds: r.solveSeconds,
    cpuSeconds: r.solveCpuSeconds,
    nodeClaims: r.nodeClaims.length,
    cost: r.cost,
    unscheduled: r.unscheduled,
  };
}

/** Runs Tenon's solve in this process, timing wall clock and the process's CPU time (all threads, GC included). */
export function runTenon(input: SchedulingInput): SideRun {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = solve(input);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    nodeClaims: r.newNodeClaims.length,
    cost: r.cost,
    unscheduled: r.unplaced.length,
  };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

const round = (x: number, d: number): number => Number(x.toFixed(d));

/** The row for one workload from its rounds (placements are deterministic on both sides; the first round's are kept). */
export function peerRow(
  w: Pick<PeerWorkload, 'name' | 'pods'>,
  karpenter: readonly SideRun[],
  tenon: readonly SideRun[],
): PeerRow {
  const k0 = karpenter[0];
  const t0 = tenon[0];
  if (!k0 || !t0) throw new Error(`no rounds for ${w.name}`);
  const rate = (runs: readonly SideRun[], f: (r: SideRun) => number): number =>
    median(runs.map((r) => w.pods / Math.max(f(r), 1e-9)));
  const ratio = (f: (r: SideRun) => number): number =>
    median(karpenter.map((k, i) => f(k) / Math.max(f(tenon[i] ?? k), 1e-9)));
  return {
    suite: 'peer',
    workload: w.name,
    pods: w.pods,
    karpenterPodsPerSecond: Math.round(rate(karpenter, (r) => r.seconds)),
    tenonPodsPerSecond: Math.round(rate(tenon, (r) => r.seconds)),
    karpenterPodsPerCpuSecond: Math.round(rate(karpenter, (r) => r.cpuSeconds)),
    tenonPodsPerCpuSecond: Math.round(rate(tenon, (r) => r.cpuSeconds)),
    cpuRatio: round(
      ratio((r) => r.cpuSeconds),
      2,
    ),
    wallRatio: round(
      ratio((r) => r.seconds),
      2,
    ),
    karpenterNodeClaims: k0.nodeClaims,
    tenonNodeClaims: t0.nodeClaims,
    karpenterCost: round(k0.cost, 4),
    tenonCost: round(t0.cost, 4),
    karpenterUnscheduled: Math.max(...karpenter.map((r) => r.unscheduled)),
    tenonUnscheduled: Math.max(...tenon.map((r) => r.unscheduled)),
  };
}

/** The suite entry point. */
export async function peerSuite(argv: string[]): Promise<void> {
  const args = peerArgs(argv);
  if (args.help) {
    process.stdout.write(peerHelp);
    return;
  }
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const bin = peerBinary(log);
  const dir = mkdtempSync(join(tmpdir(), 'tenon-peer-'));
  const rows: PeerRow[] = [];
  try {
    for (const w of peerWorkloads({ sizes: args.sizes ?? defaultDiverseSizes, families: args.families })) {
      const input: SchedulingInput = { ...w.build(args.seed), preferencePolicy: w.preferencePolicy };
      const file = join(dir, `${w.name}-${w.pods}.json`);
      writeFileSync(file, JSON.stringify(input));
      runTenon(input); // JIT warm-up, as the Go side's in-process warm-up solve.
      const karpenter: SideRun[] = [];
      const tenon: SideRun[] = [];
      for (let i = 0; i < args.rounds; i++) {
        // Alternate which side goes first so neither always runs on a machine the other just heated.
        const k = (): number => karpenter.push(runKarpenter(bin, file, w));
        const t = (): number => tenon.push(runTenon(input));
        for (const side of i % 2 === 0 ? [k, t] : [t, k]) side();
      }
      const row = peerRow(w, karpenter, tenon);
      rows.push(row);
      if (args.json) process.stdout.write(`${JSON.stringify(row)}\n`);
      else log(`${w.name} ${w.pods}: cpu ratio ${row.cpuRatio}, cost ${row.tenonCost} vs ${row.karpenterCost}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!args.json)
    printTable(
      rows.map(({ suite: _s, ...r }) => r),
      (s) => process.stdout.write(s),
    );
  const failed = rows.filter((r) => r.tenonUnscheduled > r.karpenterUnscheduled);
  if (failed.length > 0) {
    process.stderr.write(
      `FAIL: Tenon left pods unscheduled that Karpenter places: ${failed.map((r) => `${r.workload} ${r.pods}`).join(', ')}\n`,
    );
    process.exitCode = 1;
  }
  await Promise.resolve();
}
