/**
 * Multi-node consolidation: delete several underused nodes at once, replacing them with at most one cheaper
 * NodeClaim. As in Karpenter, candidates are taken cheapest-to-disrupt first and a binary search finds the
 * longest prefix (of at least two nodes) that consolidates. Karpenter caps the prefix at 100 nodes to bound
 * its simulation time; Tenon searches every budget-allowed candidate, because its resource pre-check rejects
 * hopeless prefixes without a solve (see simulation/quick-reject.ts).
 */
import { consolidateAfterElapsed } from '../candidates/candidates.js';
import type { Candidate, Command, DisruptionView } from '../types.js';
import { computeConsolidation } from './consolidation.js';
import { withinBudgets, type Method, type MethodContext, type MethodResult } from './method.js';

/** Whether a NodePool's policy and consolidateAfter let a node be consolidated while it still has pods. */
export function underutilizedEligible(c: Candidate, view: DisruptionView): boolean {
  return c.nodePool.consolidationPolicy === 'WhenEmptyOrUnderutilized' && consolidateAfterElapsed(c, view.now);
}

/** The multi-node consolidation method. */
export class MultiNodeConsolidation implements Method {
  readonly name = 'multi-node consolidation';
  readonly reason = 'Underutilized' as const;
  readonly consolidationType = 'multi' as const;

  /** See underutilizedEligible. */
  shouldDisrupt(c: Candidate, view: DisruptionView): boolean {
    return underutilizedEligible(c, view);
  }

  /** See Method. */
  computeCommand(candidates: readonly Candidate[], ctx: MethodContext): MethodResult {
    const { allowed } = withinBudgets(candidates, ctx.budgets, this.reason);
    // Budget blocks are reported by single-node consolidation, which looks at every candidate.
    let best: Command | undefined;
    let lo = 2;
    let hi = allowed.length;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      const r = computeConsolidation(allowed.slice(0, mid), ctx, this.consolidationType);
      if (r.ok) {
        best = r.command;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return { command: best, blocked: [] };
  }
}
