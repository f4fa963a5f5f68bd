/**
 * Single-node consolidation: the first candidate, cheapest to disrupt first, that can be deleted outright or
 * replaced by one strictly cheaper NodeClaim. Every candidate it had to pass over is reported with the cause.
 */
import type { Candidate, DisruptionView } from '../types.js';
import { computeConsolidation } from './consolidation.js';
import { budgetMessage, type Method, type MethodContext, type MethodResult } from './method.js';
import { underutilizedDisabled, underutilizedEligible } from './multi-node-consolidation.js';

/** The single-node consolidation method. */
export class SingleNodeConsolidation implements Method {
  readonly name = 'single-node consolidation';
  readonly reason = 'Underutilized' as const;
  readonly consolidationType = 'single' as const;

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
    const blocked: MethodResult['blocked'] = [];
    for (const c of candidates) {
      if ((ctx.budgets.get(c.nodePool.name)?.remaining ?? 0) <= 0) {
        blocked.push({ node: c.node, message: budgetMessage(c, ctx.budgets, this.reason), reason: 'DisruptionBlocked' });
        continue;
      }
      const r = computeConsolidation([c], ctx, this.consolidationType);
      if (r.ok) return { command: r.command, blocked };
      blocked.push({ node: c.node, message: r.message, reason: 'Unconsolidatable' });
    }
    return { blocked };
  }
}
