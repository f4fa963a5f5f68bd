/**
 * Karpenter's computeConsolidation, shared by the multi- and single-node methods: simulate the candidates'
 * removal; every pod must find a place; at most one new NodeClaim may be launched, and only with instance
 * types strictly cheaper than the candidates cost now. Spot candidates are replaced by spot only with the
 * SpotToSpotConsolidation gate and, for a single node, at least 15 cheaper types to choose from (so the
 * launch cannot land on a type that is itself immediately consolidatable again).
 */
import { Labels, ConditionReasons } from '../../../api/index.js';
import { Requirement } from '../../../scheduling/index.js';
import type * as sched from '../../../scheduling/index.js';
import type { RemovalOutcome, RemovalSimulator } from '../simulation/removal-simulator.js';
import type { Candidate, Command, ConsolidationType } from '../types.js';
import { narrowed, requirementsOf, type Pricing } from './pricing.js';
import { describe } from './summary.js';

/** Karpenter's MinInstanceTypesForSpotToSpotConsolidation. */
export const MinInstanceTypesForSpotToSpot = 15;

/** What consolidation needs besides the candidates. */
export interface ConsolidationContext {
  simulator: RemovalSimulator;
  pricing: Pricing;
  spotToSpot: boolean;
  /**
   * Why the pending pods hold consolidation back, per simulator: judged once per pass when the pass provides the
   * map (decide.ts does), else for every computation.
   */
  pendingVerdicts?: Map<RemovalSimulator, string | null>;
}

/** A command, or why there is none (Karpenter's Unconsolidatable message when a single candidate was tried). */
export type Consolidation = { ok: true; command: Command } | { ok: false; message: string };

/** Karpenter's Unconsolidatable message when every option that fits costs as much as the candidates or more. */
export const CantReplaceWithCheaper = "Can't replace with a cheaper node";

/** Karpenter's NonPendingPodSchedulingErrors: the first five pods that would find no place, and why. */
function schedulingErrors(stranded: RemovalOutcome['stranded']): string {
  const max = 5;
  const shown = stranded.slice(0, max).map((s) => `${s.pod} => ${s.reason}`);
  const more = stranded.length > max ? ` and ${stranded.length - max} other(s)` : '';
  return `not all pods would schedule, ${shown.join(' ')}${more}`;
}

function reject(message: string): Consolidation {
  return { ok: false, message };
}

/** The candidates' current hourly price; undefined when one is unknown. */
export function candidatesPrice(candidates: readonly Candidate[]): number | undefined {
  let sum = 0;
  for (const c of candidates) {
    if (c.node.price === undefined) return undefined;
    sum += c.node.price;
  }
  return sum;
}

function command(
  candidates: readonly Candidate[],
  replacement: sched.NewNodeClaim | undefined,
  type: ConsolidationType,
  price: number,
): Consolidation {
  const replacements = replacement ? [replacement] : [];
  const costAfter = replacement?.cheapest.price ?? 0;
  const cmd: Command = {
    reason: ConditionReasons.underutilized,
    consolidationType: type,
    method: type === 'multi' ? 'multi-node consolidation' : 'single-node consolidation',
    candidates: [...candidates],
    replacements,
    costBefore: price,
    costAfter,
    summary: '',
  };
  cmd.summary = describe(cmd);
  return { ok: true, command: cmd };
}

/**
 * Why consolidation waits for the pending pods, judged from one simulation with no candidate removed; null when it
 * need not. Removing nodes only adds pods to place and takes room away, so when the pending pods alone need more
 * than one new NodeClaim, or capacity that is not initialized yet, every removal would be rejected for the same
 * cause. Karpenter finds that out with one simulation per candidate, each placing every pending pod (113,000 of them
 * in a 150,000-pod scale-up), and the pass never ends. One simulation answers it for the whole pass.
 */
function pendingPodsVerdict(
  sim: RemovalSimulator,
  pendingVerdicts: Map<RemovalSimulator, string | null> | undefined,
): string | null {
  let verdict = pendingVerdicts?.get(sim);
  if (verdict !== undefined) return verdict;
  const base = sim.simulate([]);
  const waitsFor = new Set<string>();
  for (const s of base.stranded) if (s.waitsFor) waitsFor.add(s.waitsFor);
  verdict = null;
  if (base.newNodeClaims.length > 1)
    verdict = `pending pods need ${base.newNodeClaims.length} new NodeClaims; consolidation waits until they have them`;
  else if (waitsFor.size)
    verdict = `pending pods would schedule against ${waitsFor.size} uninitialized node(s) or NodeClaim(s); consolidation waits until they are initialized`;
  pendingVerdicts?.set(sim, verdict);
  return verdict;
}

/** Decides whether and how `candidates` can be consolidated. */
export function computeConsolidation(
  candidates: readonly Candidate[],
  ctx: ConsolidationContext,
  type: ConsolidationType,
): Consolidation {
  const price = candidatesPrice(candidates);
  if (price === undefined || price <= 0)
    return reject('the price of the node is unknown, so no replacement can be shown to be cheaper');
  const waiting = pendingPodsVerdict(ctx.simulator, ctx.pendingVerdicts);
  if (waiting) return reject(waiting);
  const outcome = ctx.simulator.simulate(candidates, { maxNewNodePrice: price });
  if (outcome.stranded.length) return reject(schedulingErrors(outcome.stranded));
  if (outcome.newNodeClaims.length === 0) return command(candidates, undefined, type, price);
  if (outcome.newNodeClaims.length > 1)
    return reject(`Can't remove without creating ${outcome.newNodeClaims.length} candidates`);
  return replace({ candidates, planned: outcome.newNodeClaims[0] as sched.NewNodeClaim, ctx, type, price });
}

interface ReplaceArgs {
  candidates: readonly Candidate[];
  planned: sched.NewNodeClaim;
  ctx: ConsolidationContext;
  type: ConsolidationType;
  price: number;
}

function replace(args: ReplaceArgs): Consolidation {
  const { candidates, planned, ctx, type, price } = args;
  const allSpot = candidates.every((c) => c.node.labels[Labels.capacityType] === 'spot');
  const reqs = requirementsOf(planned);
  const ct = reqs.get(Labels.capacityType);
  const mayBeSpot = !ct || ct.has('spot');
  if (allSpot && mayBeSpot) return spotToSpot(args);
  // Prices were taken from the cheapest offering, usually spot; when both are allowed the replacement must be
  // spot, or an on-demand fallback could cost more than the node it replaces.
  if (mayBeSpot && (!ct || ct.has('on-demand'))) reqs.add(Requirement.of(Labels.capacityType, 'In', ['spot']));
  const options = ctx.pricing.options(planned, reqs).filter((o) => o.price < price);
  if (options.length) return command(candidates, narrowed(planned, reqs, options), type, price);
  if (mayBeSpot) {
    // No cheaper spot offering at all (on-demand-only catalogs): price the options as they are.
    const asIs = requirementsOf(planned);
    const od = ctx.pricing.options(planned, asIs).filter((o) => o.price < price);
    if (od.length) return command(candidates, narrowed(planned, asIs, od), type, price);
  }
  return reject(CantReplaceWithCheaper);
}

function spotToSpot(args: ReplaceArgs): Consolidation {
  const { candidates, planned, ctx, type, price } = args;
  if (!ctx.spotToSpot) return reject("SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node");
  const reqs = requirementsOf(planned).add(Requirement.of(Labels.capacityType, 'In', ['spot']));
  const options = ctx.pricing.options(planned, reqs).filter((o) => o.price < price);
  if (options.length === 0) return reject(CantReplaceWithCheaper);
  if (candidates.length > 1) return command(candidates, narrowed(planned, reqs, options), type, price);
  if (options.length < MinInstanceTypesForSpotToSpot) {
    return reject(
      `SpotToSpotConsolidation requires ${MinInstanceTypesForSpotToSpot} cheaper instance type options than the current candidate to consolidate, got ${options.length}`,
    );
  }
  // Launch from the 15 cheapest only, so whatever EC2 picks is not itself immediately replaceable.
  return command(candidates, narrowed(planned, reqs, options.slice(0, MinInstanceTypesForSpotToSpot)), type, price);
}
