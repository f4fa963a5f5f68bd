/**
 * `npm run bench -- consolidation`: the disruption decision layer on underused clusters of 100, 500 and 1,000
 * nodes. Passes run until no command is found, each command carried out on the in-memory cluster before the next
 * pass (as the controller would after orchestration), with budgets at 100% so only the methods limit the result.
 */
import { decide } from '../../src/controllers/disruption/decide.js';
import { SolveRemovalSimulator } from '../../src/controllers/disruption/simulation/solve-simulator.js';
import { validate } from '../../src/controllers/disruption/validation.js';
import { applyCommand, fleetCost } from '../../src/controllers/disruption/testing/apply.js';
import { candidatesOf } from '../../src/controllers/disruption/candidates/candidates.js';
import { printTable } from '../scheduling/args.js';
import { underusedCluster } from './cluster.js';
import type { DisruptionView } from '../../src/controllers/disruption/types.js';
import { lowerBound as lpTwoTypeBound } from './lower-bound.js';
import { lowerBound as engineBound } from '../../src/scheduling/lower-bound/index.js';
import { loadHighs } from '../scheduling/highs.js';
import type * as sched from '../../src/scheduling/index.js';

/** One JSON line (keys as the issue lists them). */
export interface ConsolidationRow {
  suite: 'consolidation';
  nodes: number;
  seconds: number;
  msPerCandidate: number;
  costBefore: number;
  costAfter: number;
  lowerBound: number;
}

const help = `npm run bench -- consolidation [--sizes 100,500,1000] [--seed N] [--keep 0.35] [--catalog ec2|fake] [--max-passes 200] [--json] [--verbose]

Each cluster has N nodes of common EC2 types (c/m/r, generation 5+, amd64, real us-east-1 on-demand prices),
filled with random pods (0.25-2 vCPU, 1-6 GiB per vCPU) to 70-95% and then scaled down at random (each pod kept
with probability --keep). Disruption passes (drift, emptiness, multi-node and single-node consolidation, one
command per pass) run until a pass finds nothing; every command is applied to the in-memory cluster first.

  seconds         the slowest single pass: one full disruption pass over every node of the cluster (candidate
                  filtering, budgets, all four methods, and the full-solver re-validation of its command)
  msPerCandidate  total time of all passes / (sum over passes of the candidates each pass considered), in ms
  (the table also shows the number of passes to convergence and their total time)
  costBefore      fleet $/h after the scale-down; costAfter: fleet $/h after the last pass
  lowerBound      the larger of two valid bounds for the remaining pods: the scheduling engine's configuration
                  LP (src/scheduling/lower-bound, HiGHS) and a two-resource LP relaxation (the cheapest
                  fractional mix of instance types whose total allocatable CPU and memory cover the pods'
                  requests, solved exactly by enumerating single types and pairs). No real fleet costs less.
Goal (issue 11): a full pass over 1,000 nodes <= 1 s and costAfter <= 1.10 x lowerBound.
`;

interface Flags {
  json: boolean;
  verbose: boolean;
  sizes: number[];
  seed: number;
  keep: number;
  catalog: 'ec2' | 'fake';
  maxPasses: number;
}

function parse(argv: readonly string[]): Flags | undefined {
  const f: Flags = {
    json: false,
    verbose: false,
    sizes: [100, 500, 1000],
    seed: 42,
    keep: 0.35,
    catalog: 'ec2',
    maxPasses: 200,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    const next = (): string => argv[++i] ?? '';
    if (a === '--help' || a === '-h') return undefined;
    if (a === '--json') f.json = true;
    else if (a === '--verbose') f.verbose = true;
    else if (a === '--sizes') f.sizes = next().split(',').map(Number);
    else if (a === '--seed') f.seed = Number(next());
    else if (a === '--keep') f.keep = Number(next());
    else if (a === '--catalog') f.catalog = next() === 'fake' ? 'fake' : 'ec2';
    else if (a === '--max-passes') f.maxPasses = Number(next());
    else throw new Error(`unknown flag ${a}`);
  }
  return f;
}

/** Runs one cluster size to convergence. */
export async function runConsolidation(opts: {
  nodes: number;
  seed: number;
  keep: number;
  catalog: 'ec2' | 'fake';
  maxPasses: number;
  log?: (s: string) => void;
  onTotals?: (t: { passes: number; totalSeconds: number }) => void;
}): Promise<ConsolidationRow> {
  const { view: start, types } = underusedCluster(opts);
  let v = start;
  let total = 0;
  let slowest = 0;
  let candidates = 0;
  let passes = 0;
  for (let pass = 0; pass < opts.maxPasses; pass++) {
    const t0 = performance.now();
    // decide() searches with the resource-only simulator and confirms its command with the solver.
    const d = decide(v);
    // As the controller does after the consolidation TTL: re-check the command with the full solver.
    const checked = d.command ? validate(d.command, v, new SolveRemovalSimulator(v)) : undefined;
    const took = (performance.now() - t0) / 1000;
    total += took;
    slowest = Math.max(slowest, took);
    passes++;
    candidates += candidatesOf(v).candidates.length;
    if (!d.command) break;
    if (!checked?.ok) throw new Error(`the solver rejected the command: ${checked?.why ?? ''}`);
    opts.log?.(`pass ${pass}: ${d.command.summary} (${took.toFixed(3)} s)\n`);
    const applied = applyCommand(v, checked.command);
    if (!applied.ok) throw new Error(`command stranded pods: ${applied.stranded.join(', ')}`);
    v = applied.view;
  }
  const pods = v.nodes.flatMap((n) => n.pods ?? []).map((p) => ({ ...p, spec: { ...p.spec, nodeName: undefined } }));
  const bound = await bestBound(pods, v, types);
  const round = (n: number): number => Number(n.toFixed(4));
  opts.onTotals?.({ passes, totalSeconds: round(total) });
  return {
    suite: 'consolidation',
    nodes: opts.nodes,
    seconds: round(slowest),
    msPerCandidate: round((total * 1000) / Math.max(1, candidates)),
    costBefore: round(fleetCost(start)),
    costAfter: round(fleetCost(v)),
    lowerBound: round(bound),
  };
}

/** The larger of two valid bounds: the scheduling engine's configuration LP and the two-type resource LP. */
async function bestBound(pods: sched.Pod[], v: DisruptionView, types: sched.InstanceType[]): Promise<number> {
  const input: sched.SchedulingInput = {
    pods,
    nodePools: v.schedulingNodePools,
    instanceTypes: [],
    instanceTypesByNodePool: v.instanceTypesByNodePool,
    daemonSets: v.daemonSets,
  };
  const engine = engineBound(input, { solveLp: await loadHighs(), maxIterations: 40 });
  return Math.max(engine.lowerBound, lpTwoTypeBound(pods, types));
}

/** The suite entry point. */
export async function consolidationSuite(argv: string[]): Promise<void> {
  const f = parse(argv);
  if (!f) {
    process.stdout.write(help);
    return;
  }
  const rows: Array<ConsolidationRow & { passes: number; totalSeconds: number }> = [];
  for (const nodes of f.sizes) {
    let totals = { passes: 0, totalSeconds: 0 };
    const row = await runConsolidation({
      ...f,
      nodes,
      log: f.verbose ? (s) => process.stderr.write(s) : undefined,
      onTotals: (t) => (totals = t),
    });
    rows.push({ ...row, ...totals });
    if (f.json) process.stdout.write(`${JSON.stringify(row)}\n`);
  }
  if (!f.json)
    printTable(
      rows.map((r) => ({ ...r, ratio: Number((r.costAfter / r.lowerBound).toFixed(3)) })),
      (s) => process.stdout.write(s),
    );
}
