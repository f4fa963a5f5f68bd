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
NodeOverlay and CapacityBuffer workloads go through production's code: overlay-price (a -45% overlay on m7i) and
overlay-capacity (two example.com/licence seats on c7i; a quarter of the pods need one) overlay the types with
applyOverlays before anything is priced, so the solve, FFD and the lower bound all use the overlaid prices and
capacity; capacity-buffer adds a 20% CapacityBuffer on the pods' Deployment as the resolver's virtual pods.

Columns: cost = Tenon's solve (default strategy), ffdCost = strategy karpenter-ffd, both the hourly price of the new
NodeClaims at their cheapest offering; violations = what checkPlacement finds in Tenon's result, judged with
Karpenter's topology domains (checkPlacement's domains: 'karpenter'): a zone spread counts every zone a NodePool may
launch into (its requirements and allowed offerings, plus zones of existing nodes), so all pods in one zone while
other offered zones stay empty is a violation, as it is for Karpenter, which spreads over those zones; a hostname
spread's minimum is 0 (a new node is always possible). kube-scheduler counts only zones where nodes exist; the
simulated kube-scheduler keeps that. seconds = Tenon's solve time.

lowerBound = the largest of five valid bounds over every placement that checker accepts (none can exceed the
cheapest such placement):
 1. Configuration LP, solved by column generation (HiGHS WebAssembly for the master LP, branch and bound for pricing).
    Pods are grouped into classes (same requests, node constraints, tolerations, hostname anti-affinity group). A
    variant is NodePool x instance type x capacity type, priced at its cheapest allowed offering, with allocatable
    minus the DaemonSet pods certain to run there. A configuration is a set of pods one node of a variant can hold
    (every resource; at most one pod of a hostname anti-affinity group, across all its classes; node selectors and
    affinity "may match"). LP: minimise sum(price_j x_j) such that each class is covered, existing nodes are free but
    used at most once, NodePool limits bound the capacity launched. Any valid placement is a feasible integer point of
    this LP, so its optimum is a lower bound; topology spread, pod affinity and preferences are relaxed away. Column
    generation need not converge: from the master's duals (pi >= 0 for classes, lambda >= 0 for limits) Farley's
    bound (pi.d - lambda.L - sum_e V_e) / rho is valid for ANY such duals, where rho bounds max over configurations
    of (pi.a - lambda.capacity)/price and V_e bounds pi.a over configurations of existing node e. Each variant's
    max_a pi.a is exact where branch and bound proved it, else the least of these valid upper bounds: surrogate
    fractional knapsacks (each resource alone and mixes of two); an integer knapsack over the two binding resources
    on a grid, each pod weighing floor(request/unit + eps) units, so every set of pods that fits the node fits the
    grid (128 x 128 units, or units of whole grains - the requests' greatest common divisor, e.g. 50m CPU and 4Mi -
    up to a budget of cells: with one grain per unit the grid is exact in those resources, and the configuration it
    finds, read back, is the best one when it also fits the node's other resources); and the exact LP relaxation of
    the pricing problem (HiGHS), whose solution rounded down is a configuration too. The generation starts from one
    column per class plus the new NodeClaims of Tenon's own placement (a hint: any columns keep the bound valid, good
    ones converge sooner); the final bound prices, lazily from the variant that sets rho, as tightly as all of these
    allow, for the last master's duals and for the duals that gave the best bound. In all of them a
    hostname anti-affinity group takes at most one member per node across its classes (its choice is enumerated or
    it is replaced by one dominating item), never one of each class. Rounds price duals halfway between the
    master's and those that gave the best bound so far (Wentges smoothing; any duals >= 0 give a valid bound), and
    the master's own when those find nothing. When column generation stops before converging, Farley's bound is
    also taken for blends of the last master's duals with duals pricing each class by its resources (alpha.demand,
    from bound 3), and for the last duals with every variant bounded as tightly as above.
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
    Zone spread split: when a class's pods all carry one DoNotSchedule zone spread (maxSkew s) whose selector counts
    exactly those n pods (no other pending pod, none already on a node), the checker's rule gives, for every zone d
    holding some and every other eligible zone e, count_d <= count_e + s. With Z the zones Karpenter discovers for the
    pods (the NodePools' offered zones their node filter allows; the checker counts at least these, and new nodes
    can be nowhere else) and m the least count, every zone holds at most m + s, so n <= m + (Z - 1)(m + s) and every
    zone holds at least L = ceil((n - (Z - 1) s) / Z). The class then costs at least the cheapest split of its n pods
    over the Z zones, each at least L, each zone's share covered by whole nodes at that zone's prices (existing
    nodes there take their share free): dynamic programming over zones and pod counts.
 5. Whole nodes: with at most 6 pod classes, a small integer programme solved to optimality by HiGHS: y_v (whole
    nodes of variant v, existing nodes at most 1 and free) and n_vi (pods of class i on them), minimise
    sum(price_v y_v) such that sum_v n_vi >= count_i, sum_i request_ir n_vi <= capacity_vr y_v for every resource,
    n_vi <= perNode_vi y_v, an anti-affinity group's members on v number at most y_v, and NodePool limits hold on
    sum(y_v capacity_v). Counting any valid placement's nodes and pods per variant gives a feasible point, so the
    optimum is a lower bound; capacity is pooled over a variant's nodes, but node counts are whole (the LP's
    fractional nodes are what it removes, e.g. under NodePool limits).
Pod affinity and hostname spread are relaxed away in every bound, and zone spread outside bound 4's case.
costToLowerBound = cost / lowerBound (>= 1; 1 is proven optimal), costToFfd = cost / ffdCost.
`;

/** Runs one workload at `pods` pods. */
export async function runCost(opts: {
  workload: string;
  pods?: number;
  seed: number;
  quick?: boolean;
  /** false: skip the lower bound (its fields are 0), for callers that only judge the placement. */
  bound?: boolean;
}): Promise<CostRow> {
  const w = costWorkloads.find((x) => x.name === opts.workload);
  if (!w) throw new Error(`unknown workload ${opts.workload}; known: ${costWorkloads.map((x) => x.name).join(', ')}`);
  const pods = opts.pods ?? (opts.quick ? Math.max(8, Math.round(w.pods / 4)) : w.pods);
  const input: SchedulingInput = w.build(pods, opts.seed);
  const t0 = performance.now();
  const ours = solve(input);
  const seconds = (performance.now() - t0) / 1000;
  const ffd = solve({ ...input, strategy: 'karpenter-ffd' });
  const solveLp = await loadHighs();
  const lb =
    opts.bound === false
      ? { lowerBound: 0 }
      : lowerBound(input, { solveLp, maxIterations: opts.quick ? 15 : 40, domains: 'karpenter', hint: ours });
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
    violations: checkPlacement(input, ours, { domains: 'karpenter' }).length,
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
  printTable(
    rows.map(({ suite: _s, ...r }) => r),
    (s) => process.stdout.write(s),
  );
  const ratios = rows.map((r) => r.costToLowerBound).filter(Number.isFinite);
  process.stdout.write(
    `\ncost/lowerBound: median ${median(ratios).toFixed(3)}, worst ${Math.max(...ratios).toFixed(3)}; cost/ffd median ${median(rows.map((r) => r.costToFfd)).toFixed(3)}\n`,
  );
}
