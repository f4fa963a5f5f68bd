/**
 * Multi-node consolidation: delete several underused nodes at once, replacing them with at most one cheaper
 * NodeClaim. As in Karpenter, candidates are taken cheapest-to-disrupt first, at most 100 of them, and a binary
 * search finds the longest prefix (of at least two nodes) that consolidates, its replacement filtered as
 * Karpenter's filterOutSameType does (same-type-filter.ts).
 *
 * Tenon refines which prefix is taken when that command's replacement fits what it holds poorly (a huge type
 * three quarters full, or one whose CPU-to-memory ratio does not suit the pods): prefix-choice.ts looks for
 * the well-fitting command that saves the most, in Karpenter's order and in two orders that group nodes by
 * their pods' memory per CPU. Karpenter can never split a node again, so a poor-fit replacement would stay in
 * the fleet for good; the chosen command leaves the rest for later passes. When nothing fits well, Karpenter's
 * command stands.
 */
import { consolidateAfterElapsed } from '../candidates/candidates.js';
import type { Candidate, DisruptionView } from '../types.js';
import { balancedRefusal } from './balanced.js';
import { choosePrefix } from './prefix-choice.js';
import { withinBudgets, type Method, type MethodContext, type MethodResult } from './method.js';
import { ConditionReasons } from '../../../api/index.js';

/** Karpenter's batch limit: multi-node consolidation looks at the first 100 candidates only. */
export const MultiNodeConsolidationMaxCandidates = 100;

/** Whether a NodePool's policy and consolidateAfter let a node be consolidated while it still has pods. */
export function underutilizedEligible(c: Candidate, view: DisruptionView): boolean {
  return c.nodePool.consolidationPolicy !== 'WhenEmpty' && consolidateAfterElapsed(c, view.now);
}

/** Karpenter's messages for a NodePool that rules out consolidating a node that still has pods. */
export function underutilizedDisabled(c: Candidate): string | undefined {
  if (c.nodePool.consolidateAfterMs === undefined) return `NodePool "${c.nodePool.name}" has consolidation disabled`;
  if (c.nodePool.consolidationPolicy === 'WhenEmpty')
    return `NodePool "${c.nodePool.name}" has non-empty consolidation disabled`;
  return undefined;
}

/** The multi-node consolidation method. */
export class MultiNodeConsolidation implements Method {
  readonly name = 'multi-node consolidation';
  readonly reason = ConditionReasons.underutilized;
  readonly consolidationType = 'multi' as const;

  /** See underutilizedEligible. */
  shouldDisrupt(c: Candidate, view: DisruptionView): boolean {
    return underutilizedEligible(c, view);
  }

  /** See underutilizedDisabled. */
  disabledFor(c: Candidate): string | undefined {
    return underutilizedDisabled(c);
  }

  /** See Method. */
  computeCommand(candidates: readonly Candidate[], ctx: MethodContext): MethodResult {
    // Budget blocks are reported by single-node consolidation, which looks at every candidate.
    const allowed = withinBudgets(candidates, ctx.budgets, this.reason).allowed.slice(
      0,
      MultiNodeConsolidationMaxCandidates,
    );
    // A Balanced pool takes only the moves whose saving justifies their disruption (balanced.ts).
    const [command, ...alternatives] = choosePrefix(allowed, ctx).filter(
      (cmd) => balancedRefusal(cmd, ctx.view) === undefined,
    );
    return { command, alternatives, blocked: [] };
  }
}
