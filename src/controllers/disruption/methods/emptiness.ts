/**
 * Emptiness: nodes with no reschedulable pods (DaemonSet and static pods do not count) whose consolidateAfter
 * has elapsed, under either consolidation policy. Every empty node the budgets allow is deleted in one command:
 * there is nothing to move, so there is no reason to go one by one. Nodes pending pods
 * were nominated to are not candidates at all (see candidates.ts), so no simulation is needed.
 */
import { consolidateAfterElapsed } from '../candidates/candidates.js';
import type { Candidate, Command, DisruptionView } from '../types.js';
import { candidatesPrice } from './consolidation.js';
import { withinBudgets, type Method, type MethodContext, type MethodResult } from './method.js';
import { describe } from './summary.js';
import { ConditionReasons } from '../../../api/index.js';

/** The emptiness method. */
export class Emptiness implements Method {
  readonly name = 'emptiness';
  readonly reason = ConditionReasons.empty;
  readonly consolidationType = 'empty' as const;

  /** Empty nodes past consolidateAfter. */
  shouldDisrupt(c: Candidate, view: DisruptionView): boolean {
    return c.reschedulable.length === 0 && consolidateAfterElapsed(c, view.now);
  }

  /** Karpenter's message for an empty node whose NodePool never consolidates (`consolidateAfter: Never`). */
  disabledFor(c: Candidate): string | undefined {
    return c.reschedulable.length === 0 && c.nodePool.consolidateAfterMs === undefined
      ? `NodePool "${c.nodePool.name}" has consolidation disabled`
      : undefined;
  }

  /** See Method. */
  computeCommand(candidates: readonly Candidate[], ctx: MethodContext): MethodResult {
    const { allowed, blocked } = withinBudgets(candidates, ctx.budgets, this.reason);
    if (allowed.length === 0) return { blocked };
    const cmd: Command = {
      reason: this.reason,
      consolidationType: this.consolidationType,
      method: this.name,
      candidates: allowed,
      replacements: [],
      costBefore: candidatesPrice(allowed) ?? 0,
      costAfter: 0,
      summary: '',
    };
    cmd.summary = describe(cmd);
    return { command: cmd, blocked };
  }
}
