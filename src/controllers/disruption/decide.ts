/**
 * One disruption pass over a snapshot: find candidates, then try the methods in Karpenter's v1 order — drift,
 * emptiness, multi-node consolidation, single-node consolidation — and stop at the first command. Pure: the
 * controller builds the view from the informers, tests and the benchmark from plain objects.
 */
import { allowances, type Allowance } from './budgets/budgets.js';
import { byDisruptionCost, candidatesOf } from './candidates/candidates.js';
import { Drift } from './methods/drift.js';
import { Emptiness } from './methods/emptiness.js';
import type { Method } from './methods/method.js';
import { MultiNodeConsolidation } from './methods/multi-node-consolidation.js';
import { Pricing } from './methods/pricing.js';
import { SingleNodeConsolidation } from './methods/single-node-consolidation.js';
import type { RemovalSimulator } from './simulation/removal-simulator.js';
import { ResourceRemovalSimulator } from './simulation/resource-simulator.js';
import { SolveRemovalSimulator } from './simulation/solve-simulator.js';
import type { Blocked, Command, DisruptionReason, DisruptionView } from './types.js';

/** The methods in the order they are tried. */
export function defaultMethods(): Method[] {
  return [new Drift(), new Emptiness(), new MultiNodeConsolidation(), new SingleNodeConsolidation()];
}

/** The resource-only simulator with the full solver behind it (validation re-checks with the solver alone). */
export function defaultSimulator(view: DisruptionView): RemovalSimulator {
  return new ResourceRemovalSimulator(view, new SolveRemovalSimulator(view));
}

/** What a pass found. */
export interface Decision {
  command?: Command;
  /** Every node that could not be disrupted, with the first cause found (one entry per node). */
  blocked: Blocked[];
  /** Eligible candidates per reason (for `karpenter_voluntary_disruption_eligible_nodes`). */
  eligible: Partial<Record<DisruptionReason, number>>;
  /** Budget allowance per reason and NodePool (for `karpenter_nodepools_allowed_disruptions`). */
  allowed: Partial<Record<DisruptionReason, Map<string, Allowance>>>;
}

/** Options of a pass. */
export interface DecideOptions {
  simulator?: RemovalSimulator;
  methods?: Method[];
}

/** Runs one pass. */
export function decide(view: DisruptionView, opts: DecideOptions = {}): Decision {
  const { candidates, blocked } = candidatesOf(view);
  const ctx = { view, simulator: opts.simulator ?? defaultSimulator(view), pricing: new Pricing(view.instanceTypesByNodePool), spotToSpot: view.spotToSpot };
  const decision: Decision = { blocked: [...blocked], eligible: {}, allowed: {} };
  const sorted = [...candidates].sort(byDisruptionCost);
  for (const method of opts.methods ?? defaultMethods()) {
    const eligible = sorted.filter((c) => method.shouldDisrupt(c, view));
    decision.eligible[method.reason] = Math.max(decision.eligible[method.reason] ?? 0, eligible.length);
    const budgets = decision.allowed[method.reason] ?? allowances(view.nodePools, view.nodes, { reason: method.reason, now: view.now });
    decision.allowed[method.reason] = budgets;
    if (eligible.length === 0) continue;
    const r = method.computeCommand(eligible, { ...ctx, budgets });
    decision.blocked.push(...r.blocked);
    if (r.command) {
      decision.command = r.command;
      break;
    }
  }
  decision.blocked = firstPerNode(decision.blocked, new Set(decision.command?.candidates.map((c) => c.node.name)));
  return decision;
}

function firstPerNode(list: readonly Blocked[], chosen: ReadonlySet<string>): Blocked[] {
  const seen = new Set<string>();
  return list.filter((b) => {
    if (seen.has(b.node.name) || chosen.has(b.node.name)) return false;
    seen.add(b.node.name);
    return true;
  });
}
