/**
 * Single-node consolidation: the first candidate, cheapest to disrupt first, that can be deleted outright or
 * replaced by one strictly cheaper NodeClaim. Every candidate it had to pass over is reported with the cause.
 *
 * Karpenter abandons a pass after three minutes. Tenon bounds it by the number of full solves instead, which does
 * not depend on the machine, so a scenario decides the same on every run: with pending pods every candidate needs
 * one (a solve of the whole cluster), and 5,000 of them had kept a pass busy for minutes. A pass cut short says so
 * (MethodResult.incomplete) and is not remembered as having found nothing.
 */
import { balancedRefusal } from './balanced.js';
import type { Candidate, DisruptionView } from '../types.js';
import { computeConsolidation } from './consolidation.js';
import { budgetMessage, type Method, type MethodContext, type MethodResult } from './method.js';
import { underutilizedDisabled, underutilizedEligible } from './multi-node-consolidation.js';
import { ConditionReasons } from '../../../api/index.js';
import { EventReasons } from '../../event-reasons.js';

/** Full solves one pass may spend on single-node consolidation (Karpenter's 3-minute timeout, counted in solves). */
export const SingleNodeConsolidationMaxSolves = 200;

/** The single-node consolidation method. */
export class SingleNodeConsolidation implements Method {
  readonly name = 'single-node consolidation';
  readonly reason = ConditionReasons.underutilized;
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
    const limit = (ctx.simulator.solves ?? 0) + SingleNodeConsolidationMaxSolves;
    for (const [i, c] of candidates.entries()) {
      if ((ctx.simulator.solves ?? 0) >= limit) {
        return {
          blocked,
          incomplete: `abandoning single-node consolidation after ${SingleNodeConsolidationMaxSolves} simulations, having evaluated ${i} of ${candidates.length} candidates`,
        };
      }
      if ((ctx.budgets.get(c.nodePool.name)?.remaining ?? 0) <= 0) {
        blocked.push({
          node: c.node,
          message: budgetMessage(c, ctx.budgets, this.reason),
          reason: EventReasons.disruptionBlocked,
        });
        continue;
      }
      const r = computeConsolidation([c], ctx, this.consolidationType);
      const refused = r.ok ? balancedRefusal(r.command, ctx.view) : undefined;
      if (r.ok && !refused) return { command: r.command, blocked };
      blocked.push({
        node: c.node,
        message: r.ok ? (refused ?? '') : r.message,
        reason: EventReasons.unconsolidatable,
      });
    }
    return { blocked };
  }
}
