/**
 * One disruption pass over a snapshot: find candidates, then try the methods in Karpenter's v1 order — drift,
 * emptiness, multi-node consolidation, single-node consolidation — and stop at the first command. Pure: the
 * controller builds the view from the informers, tests and the benchmark from plain objects.
 */
import { allowances, type Allowance } from './budgets/budgets.js';
import { byDisruptionCost, candidatesOf } from './candidates/candidates.js';
import { defaultMethods } from './methods/all.js';
import type { Method, MethodContext, MethodResult } from './methods/method.js';
import { Pricing } from './methods/pricing.js';
import { SolveCache } from '../../scheduling/index.js';
import type { RemovalSimulator } from './simulation/removal-simulator.js';
import { ResourceRemovalSimulator } from './simulation/resource-simulator.js';
import { SolveRemovalSimulator } from './simulation/solve-simulator.js';
import type { Blocked, Candidate, Command, DisruptionReason, DisruptionView } from './types.js';
import { validate } from './validation.js';
import { EventReasons } from '../event-reasons.js';

export { defaultMethods } from './methods/all.js';

/** What a pass found. */
export interface Decision {
  command?: Command;
  /** Every node that could not be disrupted, with the first cause found (one entry per node). */
  blocked: Blocked[];
  /** Eligible candidates per reason (for `karpenter_voluntary_disruption_eligible_nodes`). */
  eligible: Partial<Record<DisruptionReason, number>>;
  /** Budget allowance per reason and NodePool (for `karpenter_nodepools_allowed_disruptions`). */
  allowed: Partial<Record<DisruptionReason, Map<string, Allowance>>>;
  /** Set when a method stopped before looking at every candidate: the pass did not show there is nothing to do. */
  incomplete?: { method: Method; message: string };
}

/** Options of a pass. */
export interface DecideOptions {
  simulator?: RemovalSimulator;
  methods?: Method[];
}

/**
 * Without a simulator given, consolidation searches with the resource-only simulator in front of the solver and
 * confirms its command with the solver alone; if the solver disagrees, the method's alternatives are confirmed
 * in turn, and only when none holds does the method run again on the solver (a much slower search).
 */
function confirmed(
  method: Method,
  eligible: readonly Candidate[],
  ctx: MethodContext,
  solver: RemovalSimulator,
): MethodResult {
  const r = method.computeCommand(eligible, ctx);
  if (!r.command || r.command.reason !== 'Underutilized') return r;
  for (const cmd of [r.command, ...(r.alternatives ?? [])]) {
    const check = validate(cmd, ctx.view, solver);
    if (check.ok) return { blocked: r.blocked, command: check.command };
  }
  return method.computeCommand(eligible, { ...ctx, simulator: solver });
}

/** Runs one pass. */
export function decide(view: DisruptionView, opts: DecideOptions = {}): Decision {
  const { candidates, blocked } = candidatesOf(view);
  // One cache per pass: its simulations share the parsed nodes, pods and instance types.
  const cache = new SolveCache();
  const solver = new SolveRemovalSimulator(view, cache);
  const simulator = opts.simulator ?? new ResourceRemovalSimulator(view, solver, cache);
  const pendingVerdicts = new Map<RemovalSimulator, string | null>();
  const ctx = {
    view,
    simulator,
    pricing: new Pricing(view.instanceTypesByNodePool, cache),
    spotToSpot: view.spotToSpot,
    pendingVerdicts,
  };
  const decision: Decision = { blocked: [...blocked], eligible: {}, allowed: {} };
  const sorted = [...candidates].sort(byDisruptionCost);
  for (const method of opts.methods ?? defaultMethods()) {
    const eligible = sorted.filter((c) => method.shouldDisrupt(c, view));
    decision.blocked.push(...disabled(method, sorted));
    decision.eligible[method.reason] = Math.max(decision.eligible[method.reason] ?? 0, eligible.length);
    const budgets =
      decision.allowed[method.reason] ??
      allowances(view.nodePools, view.nodes, { reason: method.reason, now: view.now });
    decision.allowed[method.reason] = budgets;
    if (eligible.length === 0) continue;
    const r = opts.simulator
      ? method.computeCommand(eligible, { ...ctx, budgets })
      : confirmed(method, eligible, { ...ctx, budgets }, solver);
    decision.blocked.push(...r.blocked);
    if (r.incomplete) decision.incomplete = { method, message: r.incomplete };
    if (r.command) {
      decision.command = r.command;
      break;
    }
  }
  decision.blocked = firstPerNode(decision.blocked, new Set(decision.command?.candidates.map((c) => c.node.name)));
  return decision;
}

/** Candidates the method's NodePool settings keep it off, with Karpenter's message. */
function disabled(method: Method, candidates: readonly Candidate[]): Blocked[] {
  const out: Blocked[] = [];
  for (const c of candidates) {
    const message = method.disabledFor?.(c);
    if (message) out.push({ node: c.node, message, reason: EventReasons.unconsolidatable });
  }
  return out;
}

function firstPerNode(list: readonly Blocked[], chosen: ReadonlySet<string>): Blocked[] {
  const seen = new Set<string>();
  return list.filter((b) => {
    if (seen.has(b.node.name) || chosen.has(b.node.name)) return false;
    seen.add(b.node.name);
    return true;
  });
}
