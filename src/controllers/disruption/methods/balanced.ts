/**
 * `consolidationPolicy: Balanced` (Karpenter v1.15, designs/balanced-consolidation.md): a consolidation move is
 * taken only when its saving, as a fraction of the NodePool's hourly cost, is at least half its disruption, as a
 * fraction of the NodePool's disruption cost (score = savings fraction / disruption fraction >= 1/k, k = 2; v1.15
 * has no field to change k). A node's disruption cost is 1 plus the eviction cost of each pod that must move
 * (negative costs count as 0), so an empty node costs 1 and the totals are never zero.
 */
import { evictionCost, reschedulablePods } from '../candidates/pods.js';
import type { Command, DisruptionNode, DisruptionView } from '../types.js';

/** Karpenter's default consolidationThreshold (k): a move passes when score >= 1/k. */
export const BalancedThreshold = 2;

/** A scored move. */
export interface BalancedScore {
  savingsFraction: number;
  disruptionFraction: number;
  score: number;
  approved: boolean;
}

/** 1 per node plus each reschedulable pod's eviction cost, floored at 0. */
export function nodeDisruptionCost(node: DisruptionNode): number {
  return reschedulablePods(node.pods).reduce((s, p) => s + Math.max(0, evictionCost(p)), 1);
}

/** Scores a command against its (source) NodePool's totals over the nodes of the view. */
export function scoreMove(cmd: Command, view: DisruptionView): BalancedScore {
  const pool = cmd.candidates[0]?.nodePool.name;
  const members = view.nodes.filter((n) => n.nodePool === pool);
  const totalCost = members.reduce((s, n) => s + (n.price ?? 0), 0);
  const totalDisruption = members.reduce((s, n) => s + nodeDisruptionCost(n), 0);
  const savings = cmd.costBefore - cmd.costAfter;
  const disruption = cmd.candidates.reduce((s, c) => s + nodeDisruptionCost(c.node), 0);
  const savingsFraction = totalCost > 0 ? savings / totalCost : 0;
  const disruptionFraction = totalDisruption > 0 ? disruption / totalDisruption : 1;
  const score = disruptionFraction > 0 ? savingsFraction / disruptionFraction : 0;
  return { savingsFraction, disruptionFraction, score, approved: savings > 0 && score >= 1 / BalancedThreshold };
}

/** Why a Balanced pool refuses the command, or undefined when its policy is not Balanced or the move passes. */
export function balancedRefusal(cmd: Command, view: DisruptionView): string | undefined {
  if (cmd.candidates[0]?.nodePool.consolidationPolicy !== 'Balanced') return undefined;
  const s = scoreMove(cmd, view);
  if (s.approved) return undefined;
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  return `Balanced consolidation: saving ${pct(s.savingsFraction)} of the NodePool's cost does not justify disrupting ${pct(s.disruptionFraction)} of it (score ${s.score.toFixed(2)} < ${1 / BalancedThreshold})`;
}
