/**
 * `npm run bench -- cost`: on the real EC2 catalog, Tenon's fleet cost against a faithful re-creation of Karpenter's
 * first-fit-decreasing packing (strategy `karpenter-ffd`) and against a valid lower bound; every result checked.
 */
import { checkPlacement, lowerBound, solve, type SchedulingInput } from '../../src/scheduling/index.js';
import { parseArgs, printTable } from './args.js';
import { costWorkloads } from './cost-workloads.js';
import { loadHighs } from './highs.js';

/** One JSON line of the suite. */
export interface CostRow {
  suite: 'cost';
  workload: string;
  pods: number;
  cost: number;
  ffdCost: number;
  lowerBound: number;
  costToLowerBound: number;
  costToFfd: number;
  violations: number;
  seconds: number;
}

const help = `npm run bench -- cost [--workload a,b] [--sizes N,...] [--seed N] [--quick] [--json]

Workloads (default pod counts): ${costWorkloads.map((w) => `${w.name} (${w.pods})`).join(', ')}.
Catalog: data/aws-instance-types.json (us-east-1, types with an on-demand price), offered on-demand at the published
price and spot at a seeded, stable discount of 50-80% per type and zone; 3 zones (zone-spread: 6). NodePools: c/m/r,
generation > 5, amd64, on-demand unless the workload says otherwise. --sizes overrides every workload's pod count;
--quick uses a quarter of the default counts and fewer bound iterations.

Columns: cost = Tenon's solve (default strategy), ffdCost = strategy karpenter-ffd, both the hourly price of the new
NodeClaims at their cheapest offering; violations = what checkPlacement finds in Tenon's result; seconds = Tenon's
solve time.

lowerBound = the largest of four valid bounds (none can exceed the cheapest valid placement):
 1. Configuration LP, solved by column generation (HiGHS WebAssembly for the master LP, branch and bound for pricing).
    Pods are grouped into classes (same requests, node constraints, tolerations, hostname anti-affinity group). A
    variant is NodePool x instance type x capacity type, priced at its cheapest allowed offering, with allocatable
    minus the DaemonSet pods certain to run there. A configuration is a set of pods one node of a variant can hold
    (every resource; at most one pod of a hostname anti-affinity group; node selectors and affinity "may match").
    LP: minimise sum(price_j x_j) such that each class is covered, existing nodes are free but used at most once,
    NodePool limits bound the capacity launched. Any valid placement is a feasible integer point of this LP, so its
    optimum is a lower bound; zone spread, pod affinity and preferences are relaxed away. Column generation need not
    converge: from the master's duals (pi >= 0 for classes, lambda >= 0 for limits) Farley's bound
    (pi.d - lambda.L - sum_e V_e) / rho is valid for ANY such duals, where rho bounds max over configurations of
    (pi.a - lambda.capacity)/price (exact where branch and bound proved it, else the least of several surrogate
    fractional-knapsack bounds: each resource alone and mixes of two) and V_e bounds pi.a over configurations of
    existing node e. When column generation stops before converging, Farley's bound is also taken for blends of the
    last master's duals with duals pricing each class by its resources (alpha.demand, from bound 3).
 2. Node count for hostname anti-affinity: n mutually anti-affine pods need n distinct nodes; those the existing
    nodes cannot take each cost at least the cheapest variant able to hold one.
 3. Aggregate: prices per unit of each resource (alpha >= 0) and per node (beta >= 0) that no new-node variant
    undercuts (alpha.capacity_v + beta <= price_v, from a small LP). Every new node then costs at least
    alpha.capacity + beta, the new nodes must hold the demand beyond the existing nodes' free capacity and number at
    least the nodes bound 2 needs, so cost >= alpha.max(0, demand - free) + beta.nodes. It needs no convergence, so it
    carries the mixes with many pod classes (diverse) where column generation stalls.
 4. Class cover: when no variant can hold pods of two classes (one class, or e.g. arm64 and amd64 pods), every node
    serves one class, and n identical pods beyond what the existing nodes' free room takes cost at least their
    cheapest cover by whole nodes (each variant holding at most its per-node count), found exactly by dynamic
    programming over the pod count. Limits are relaxed away.
Topology spread and pod affinity are relaxed away in every bound: the checker (kube-scheduler's rules) counts only
domains where nodes exist, so a placement in one zone is valid and no per-zone share of the pods can be assumed. On
zone-spread the gap to the bound is the price of spreading over every zone the NodePool offers, as Karpenter does.
costToLowerBound = cost / lowerBound (>= 1; 1 is proven optimal), costToFfd = cost / ffdCost.
`;

/** Runs one workload at `pods` pods. */
export async function runCost(opts: { workload: string; pods?: number; seed: number; quick?: boolean }): Promise<CostRow> {
  const w = costWorkloads.find((x) => x.name === opts.workload);
  if (!w) throw new Error(`unknown workload ${opts.workload}; known: ${costWorkloads.map((x) => x.name).join(', ')}`);
  const pods = opts.pods ?? (opts.quick ? Math.max(8, Math.round(w.pods / 4)) : w.pods);
  const input: SchedulingInput = w.build(pods, opts.seed);
  const t0 = performance.now();
  const ours = solve(input);
  const seconds = (performance.now() - t0) / 1000;
  const ffd = solve({ ...input, strategy: 'karpenter-ffd' });
  const solveLp = await loadHighs();
  const lb = lowerBound(input, { solveLp, maxIterations: opts.quick ? 15 : 40 });
  const round = (x: number, d = 4): number => Number(x.toFixed(d));
  return {
    suite: 'cost',
    workload: w.name,
    pods: input.pods.length,
    cost: round(ours.cost),
    ffdCost: round(ffd.cost),
    lowerBound: round(lb.lowerBound),
    // 0/0 (everything fits existing nodes) is optimal: ratio 1.
    costToLowerBound: round(lb.lowerBound > 0 ? ours.cost / lb.lowerBound : ours.cost > 0 ? Number.MAX_VALUE : 1),
    costToFfd: round(ffd.cost > 0 ? ours.cost / ffd.cost : 1),
    violations: checkPlacement(input, ours).length,
    seconds: round(seconds),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

/** The suite entry point. */
export async function costSuite(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  if (args.help) {
    process.stdout.write(help);
    return;
  }
  const rows: CostRow[] = [];
  for (const workload of args.workloads ?? costWorkloads.map((w) => w.name)) {
    for (const pods of args.sizes ?? [undefined]) {
      const row = await runCost({ workload, pods, seed: args.seed, quick: args.quick });
      rows.push(row);
      if (args.json) process.stdout.write(`${JSON.stringify(row)}\n`);
    }
  }
  if (args.json) return;
  printTable(rows.map(({ suite: _s, ...r }) => r), (s) => process.stdout.write(s));
  const ratios = rows.map((r) => r.costToLowerBound).filter(Number.isFinite);
  process.stdout.write(`\ncost/lowerBound: median ${median(ratios).toFixed(3)}, worst ${Math.max(...ratios).toFixed(3)}; cost/ffd median ${median(rows.map((r) => r.costToFfd)).toFixed(3)}\n`);
}
