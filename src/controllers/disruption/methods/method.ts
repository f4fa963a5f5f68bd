/**
 * The shape every disruption method shares (Karpenter's Method): which candidates it considers, the budget
 * reason it spends, and how it turns eligible candidates into at most one command.
 */
import type { Allowance } from '../budgets/budgets.js';
import type { Blocked, Candidate, Command, ConsolidationType, DisruptionReason, DisruptionView } from '../types.js';
import type { ConsolidationContext } from './consolidation.js';
import { EventReasons } from '../../event-reasons.js';

/** What a method is given besides its candidates. */
export interface MethodContext extends ConsolidationContext {
  view: DisruptionView;
  /** What is left of each NodePool's budget for this method's reason. */
  budgets: Map<string, Allowance>;
}

/** A method's result: a command, and the candidates it could not act on with the cause. */
export interface MethodResult {
  command?: Command;
  /**
   * Commands to fall back on, best first, should a more thorough simulation than the method's reject `command`
   * (decide.ts confirms resource-only answers with the solver).
   */
  alternatives?: Command[];
  blocked: Blocked[];
  /** Set when the method stopped before it had looked at every candidate (its simulation budget ran out), saying where. */
  incomplete?: string;
}

/** One disruption method. */
export interface Method {
  readonly name: string;
  readonly reason: DisruptionReason;
  readonly consolidationType: ConsolidationType;
  /** Whether the candidate is this method's business at all (drifted, empty, consolidatable…). */
  shouldDisrupt(c: Candidate, view: DisruptionView): boolean;
  /** Karpenter's `Unconsolidatable` message when the NodePool's settings keep this method off the candidate. */
  disabledFor?(c: Candidate): string | undefined;
  /** At most one command from the eligible candidates (sorted cheapest to disrupt first). */
  computeCommand(candidates: readonly Candidate[], ctx: MethodContext): MethodResult;
}

/** Candidates the budgets allow, taken in order and each spending one node of its NodePool's allowance. */
export function withinBudgets(
  candidates: readonly Candidate[],
  budgets: ReadonlyMap<string, Allowance>,
  reason: DisruptionReason,
): { allowed: Candidate[]; blocked: Blocked[] } {
  const left = new Map([...budgets].map(([k, v]) => [k, v.remaining]));
  const allowed: Candidate[] = [];
  const blocked: Blocked[] = [];
  for (const c of candidates) {
    const n = left.get(c.nodePool.name) ?? 0;
    if (n <= 0) {
      blocked.push({
        node: c.node,
        message: budgetMessage(c, budgets, reason),
        reason: EventReasons.disruptionBlocked,
      });
      continue;
    }
    left.set(c.nodePool.name, n - 1);
    allowed.push(c);
  }
  return { allowed, blocked };
}

/** The `DisruptionBlocked` message for a node held back by its NodePool's budget. */
export function budgetMessage(c: Candidate, budgets: ReadonlyMap<string, Allowance>, reason: DisruptionReason): string {
  const a = budgets.get(c.nodePool.name);
  return `blocked by disruption budget of NodePool ${c.nodePool.name} for reason ${reason} (allows ${a?.allowed ?? 0} node(s) at a time, none left)`;
}
