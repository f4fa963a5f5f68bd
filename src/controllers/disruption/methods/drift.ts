/**
 * Drift: nodes whose NodePool template hash changed, whose labels no longer satisfy the NodePool's
 * requirements, or that the cloud provider reports drifted. Empty drifted nodes within budget are deleted
 * together; otherwise one drifted node at a time is replaced by whatever its pods need (replacements need not be
 * cheaper). consolidateAfter does not apply.
 */
import { describe } from './summary.js';
import type { Candidate, Command, DisruptionView } from '../types.js';
import { candidatesPrice } from './consolidation.js';
import { withinBudgets, type Method, type MethodContext, type MethodResult } from './method.js';
import { ConditionReasons } from '../../../api/index.js';
import { EventReasons } from '../../event-reasons.js';

/** The drift method. */
export class Drift implements Method {
  readonly name = 'drift';
  readonly reason = ConditionReasons.drifted;
  readonly consolidationType = '' as const;

  /** Drifted nodes only; a static NodePool's are StaticDrift's. */
  shouldDisrupt(c: Candidate, _view: DisruptionView): boolean {
    return c.node.drifted !== undefined && c.nodePool.static === undefined;
  }

  /** See Method. */
  computeCommand(candidates: readonly Candidate[], ctx: MethodContext): MethodResult {
    const { allowed, blocked } = withinBudgets(candidates, ctx.budgets, this.reason);
    const empty = allowed.filter((c) => c.reschedulable.length === 0);
    if (empty.length) return { command: this.command(empty, []), blocked };
    for (const c of allowed) {
      const outcome = ctx.simulator.simulate([c]);
      const first = outcome.stranded[0];
      if (first) {
        blocked.push({
          node: c.node,
          message: `drifted (${c.node.drifted ?? ''}) but would not fit: pod ${first.pod} could not be rescheduled (${first.reason})`,
          reason: EventReasons.disruptionBlocked,
        });
        continue;
      }
      // Later drifted nodes are simply next in line, not blocked.
      return { command: this.command([c], outcome.newNodeClaims), blocked };
    }
    return { blocked };
  }

  private command(candidates: Candidate[], replacements: Command['replacements']): Command {
    const cmd: Command = {
      reason: this.reason,
      consolidationType: this.consolidationType,
      method: this.name,
      candidates,
      replacements,
      costBefore: candidatesPrice(candidates) ?? 0,
      costAfter: replacements.reduce((s, r) => s + r.cheapest.price, 0),
      summary: '',
    };
    cmd.summary = describe(cmd);
    return cmd;
  }
}
