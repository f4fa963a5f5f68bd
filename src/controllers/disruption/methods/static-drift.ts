/**
 * Static drift (Karpenter's StaticDrift): drifted nodes of a static NodePool (`spec.replicas`) are replaced
 * replacement first, each by one NodeClaim from the pool's template, as many at once as the pool's budget for
 * `Drifted` allows. No scheduling simulation: a static pool's nodes are not sized to their pods. A pool still
 * scaling down is left alone (a replacement would only be surplus), and a pool whose `limits.nodes` leaves no
 * room for a replacement is blocked with Karpenter's message rather than deleting first.
 */
import type { Blocked, Candidate, Command, DisruptionNodePool, StaticPool } from '../types.js';
import { candidatesPrice } from './consolidation.js';
import { withinBudgets, type Method, type MethodContext, type MethodResult } from './method.js';
import { describe } from './summary.js';
import { ConditionReasons } from '../../../api/index.js';
import { EventReasons } from '../../event-reasons.js';

/** Karpenter's DisruptionBlocked message when limits.nodes leaves no room for a replacement. */
export const staticAtLimitMessage = 'static NodePool is at its node limit and cannot stage a replacement';

/** Whether the candidate belongs to a static NodePool. */
export function ofStaticPool(c: Candidate): c is Candidate & { nodePool: DisruptionNodePool & { static: StaticPool } } {
  return c.nodePool.static !== undefined;
}

/** How many replacements the pool can stage without passing limits.nodes. */
export function staticRoom(p: Pick<StaticPool, 'limitNodes' | 'nodeClaims'>): number {
  return p.limitNodes === undefined ? Number.POSITIVE_INFINITY : Math.max(0, p.limitNodes - p.nodeClaims);
}

/** The static drift method. */
export class StaticDrift implements Method {
  readonly name = 'static-drift';
  readonly reason = ConditionReasons.drifted;
  readonly consolidationType = '' as const;

  /** Drifted nodes of static NodePools. */
  shouldDisrupt(c: Candidate): boolean {
    return c.node.drifted !== undefined && ofStaticPool(c);
  }

  /** See Method: one command replacing every drifted node the budgets and limits allow, pool by pool. */
  computeCommand(candidates: readonly Candidate[], ctx: MethodContext): MethodResult {
    const { allowed, blocked } = withinBudgets(candidates, ctx.budgets, this.reason);
    const chosen: Candidate[] = [];
    const byPool = new Map<string, Candidate[]>();
    for (const c of allowed) byPool.set(c.nodePool.name, [...(byPool.get(c.nodePool.name) ?? []), c]);
    for (const group of byPool.values()) chosen.push(...this.take(group, blocked));
    if (chosen.length === 0) return { blocked };
    return { command: this.command(chosen), blocked };
  }

  private take(group: Candidate[], blocked: Blocked[]): Candidate[] {
    const first = group[0];
    if (!first || !ofStaticPool(first)) return [];
    const pool = first.nodePool.static;
    if (pool.active > pool.replicas) return [];
    const room = staticRoom(pool);
    for (const c of group.slice(room))
      blocked.push({ node: c.node, message: staticAtLimitMessage, reason: EventReasons.disruptionBlocked });
    return group.slice(0, room);
  }

  private command(candidates: Candidate[]): Command {
    const replacements = candidates.flatMap((c) => (ofStaticPool(c) ? [c.nodePool.static.template] : []));
    const cmd: Command = {
      reason: this.reason,
      consolidationType: this.consolidationType,
      method: this.name,
      candidates,
      replacements,
      costBefore: candidatesPrice(candidates) ?? 0,
      costAfter: 0,
      summary: '',
    };
    cmd.summary = describe(cmd);
    return cmd;
  }
}
