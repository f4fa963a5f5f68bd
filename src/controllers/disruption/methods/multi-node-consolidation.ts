/**
 * Multi-node consolidation: delete several underused nodes at once, replacing them with at most one cheaper
 * NodeClaim. As in Karpenter, candidates are taken cheapest-to-disrupt first, at most 100 of them, and a binary
 * search finds the longest prefix (of at least two nodes) that consolidates, its replacement filtered as
 * Karpenter's filterOutSameType does (same-type-filter.ts).
 *
 * Tenon adds one refinement (docs/adr: "multi-node consolidation avoids poor-fit replacements"): when the
 * longest prefix needs a replacement priced well above what its contents are worth on the best-fitting type
 * (a huge, pricier-per-core type, or one mostly empty), a second search looks for the longest shorter prefix
 * whose replacement fits well (or that needs none). Karpenter can never split a node again, so a poor-fit
 * replacement would stay in the fleet for good; the shorter command saves less now and leaves the rest for the
 * next pass. When no shorter prefix fits well, Karpenter's command stands.
 */
import { consolidateAfterElapsed } from '../candidates/candidates.js';
import type { Candidate, Command, DisruptionView } from '../types.js';
import { computeConsolidation } from './consolidation.js';
import { withoutSameType } from './same-type-filter.js';
import { withinBudgets, type Method, type MethodContext, type MethodResult } from './method.js';

/** Karpenter's batch limit: multi-node consolidation looks at the first 100 candidates only. */
export const MultiNodeConsolidationMaxCandidates = 100;

/**
 * A replacement priced above this multiple of the cheapest fractional price of what it holds (see
 * Pricing.overpay) is a poor fit, and a shorter prefix with a better-fitting replacement is preferred.
 */
export const MaxReplacementOverpay = 1.1;

/** Whether a NodePool's policy and consolidateAfter let a node be consolidated while it still has pods. */
export function underutilizedEligible(c: Candidate, view: DisruptionView): boolean {
  return c.nodePool.consolidationPolicy === 'WhenEmptyOrUnderutilized' && consolidateAfterElapsed(c, view.now);
}

/** Karpenter's messages for a NodePool that rules out consolidating a node that still has pods. */
export function underutilizedDisabled(c: Candidate): string | undefined {
  if (c.nodePool.consolidateAfterMs === undefined) return `NodePool "${c.nodePool.name}" has consolidation disabled`;
  if (c.nodePool.consolidationPolicy !== 'WhenEmptyOrUnderutilized') return `NodePool "${c.nodePool.name}" has non-empty consolidation disabled`;
  return undefined;
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

  /** See underutilizedDisabled. */
  disabledFor(c: Candidate): string | undefined {
    return underutilizedDisabled(c);
  }

  /** See Method. */
  computeCommand(candidates: readonly Candidate[], ctx: MethodContext): MethodResult {
    // Budget blocks are reported by single-node consolidation, which looks at every candidate.
    const allowed = withinBudgets(candidates, ctx.budgets, this.reason).allowed.slice(0, MultiNodeConsolidationMaxCandidates);
    const fitsWell = (c: Command): boolean => c.replacements.every((r) => ctx.pricing.overpay(r) <= MaxReplacementOverpay);
    const longest = longestPrefix(allowed, allowed.length, ctx, () => true);
    if (!longest || fitsWell(longest)) return { command: longest, blocked: [] };
    const better = longestPrefix(allowed, longest.candidates.length - 1, ctx, fitsWell);
    return { command: better ?? longest, blocked: [] };
  }
}

/**
 * Binary search for the longest prefix of `allowed`, two to `max` nodes long, that consolidates into a command
 * `accept` takes. Like Karpenter's, it assumes a prefix that fails makes longer ones fail too; where that does
 * not hold it still returns a valid command, just not necessarily the longest.
 */
function longestPrefix(allowed: readonly Candidate[], max: number, ctx: MethodContext, accept: (c: Command) => boolean): Command | undefined {
  let best: Command | undefined;
  let lo = 2;
  let hi = max;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const r = computeConsolidation(allowed.slice(0, mid), ctx, 'multi');
    const cmd = r.ok ? withoutSameType(r.command, ctx.pricing) : undefined;
    if (cmd && accept(cmd)) {
      best = cmd;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}
