/**
 * Karpenter's consolidation validation: a decision is kept for a short while (the consolidation TTL, 15 s) and
 * then checked again on a fresh view. It is carried out only if every candidate is still a candidate of the
 * same method, still within budget, and — for consolidation — the same removal still works at no higher
 * cost. Otherwise the cluster changed under the decision and it is dropped.
 */
import { allowances } from './budgets/budgets.js';
import { candidatesOf } from './candidates/candidates.js';
import { computeConsolidation } from './methods/consolidation.js';
import { defaultMethods } from './methods/all.js';
import { withinBudgets } from './methods/method.js';
import { Pricing } from './methods/pricing.js';
import { withoutSameType } from './methods/same-type-filter.js';
import { describe } from './methods/summary.js';
import type { RemovalSimulator } from './simulation/removal-simulator.js';
import { SolveRemovalSimulator } from './simulation/solve-simulator.js';
import type { Command, DisruptionView } from './types.js';

/** Karpenter's consolidation TTL. */
export const ConsolidationTtlMs = 15_000;

/** The command to carry out (refreshed from the new view), or why it was dropped. */
export type Validation = { ok: true; command: Command } | { ok: false; why: string };

/** Re-checks `cmd` against a fresh view. */
export function validate(
  cmd: Command,
  view: DisruptionView,
  simulator: RemovalSimulator = new SolveRemovalSimulator(view),
): Validation {
  const method = defaultMethods().find((m) => m.name === cmd.method);
  if (!method) return { ok: false, why: `unknown method ${cmd.method}` };
  const fresh = new Map(candidatesOf(view).candidates.map((c) => [c.node.name, c]));
  const candidates = [];
  for (const c of cmd.candidates) {
    const now = fresh.get(c.node.name);
    if (!now || !method.shouldDisrupt(now, view))
      return { ok: false, why: `node ${c.node.name} is no longer a ${method.name} candidate` };
    candidates.push(now);
  }
  const budgets = allowances(view.nodePools, view.nodes, { reason: cmd.reason, now: view.now });
  if (withinBudgets(candidates, budgets, cmd.reason).blocked.length)
    return { ok: false, why: 'a disruption budget no longer allows it' };
  if (cmd.reason !== 'Underutilized') return { ok: true, command: { ...cmd, candidates } };
  const pricing = new Pricing(view.instanceTypesByNodePool);
  const again = computeConsolidation(
    candidates,
    { simulator, pricing, spotToSpot: view.spotToSpot },
    cmd.consolidationType,
  );
  if (!again.ok) return { ok: false, why: again.message };
  const recomputed = cmd.consolidationType === 'multi' ? withoutSameType(again.command, pricing) : again.command;
  if (!recomputed) return { ok: false, why: 'the only replacement left is of a type being removed and no cheaper' };
  if (recomputed.replacements.length !== cmd.replacements.length || recomputed.costAfter > cmd.costAfter + 1e-9)
    return { ok: false, why: 'the replacement it needs changed' };
  // Tenon's reason for preferring this command over Karpenter's longest prefix still holds: keep it in the events.
  const kept: Command = { ...recomputed, preferredOver: cmd.preferredOver };
  kept.summary = describe(kept);
  return { ok: true, command: kept };
}
