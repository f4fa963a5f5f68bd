/**
 * Which prefix multi-node consolidation acts on (docs/adr/0011-disruption.md, "Multi-node consolidation"). Karpenter's command is the
 * longest prefix, in cheapest-to-disrupt order, that consolidates. Tenon keeps it when its replacement fits what
 * it holds well (or it needs none); otherwise it looks, in that order and in two more orders of the same
 * candidates — by memory per CPU of their pods, ascending and descending, so that a prefix gathers CPU-heavy or
 * memory-heavy nodes whose pods suit one compute- or memory-optimised type — for the command that saves the
 * most among those whose replacement fits well. With none, Karpenter's command stands.
 */
import { podRequests } from '../../../scheduling/index.js';
import type { Candidate, Command } from '../types.js';
import { computeConsolidation } from './consolidation.js';
import type { MethodContext } from './method.js';
import { withoutSameType } from './same-type-filter.js';
import { describe, describeAction } from './summary.js';

/**
 * A replacement priced above this multiple of the fair price of what it holds (Pricing.overpay) is a poor fit:
 * consolidation never splits a node again, so the extra is paid for as long as the node lives.
 */
export const MaxReplacementOverpay = 1.1;

/** At most this many prefix lengths are tried per order below its longest consolidating prefix. */
export const MaxPrefixScan = 40;

/**
 * At most this many full solves are spent looking past Karpenter's command (a full solve costs an order of magnitude more
 * than a resource-only simulation); when pods or NodePools send simulations to the solver, the
 * search stops there with what it found.
 */
export const MaxExtraSolves = 16;

/** Well-fitting commands offered after the chosen one, should the solver reject it (MethodResult.alternatives). */
export const MaxAlternatives = 4;

/** The state of the search past Karpenter's command: what it found, and the simulator's solve count it must stay under. */
interface Search {
  ctx: MethodContext;
  found: Scored[];
  solveLimit: number;
}

function exhausted(search: Search): boolean {
  return (search.ctx.simulator.solves ?? 0) >= search.solveLimit;
}

/** A command with what it saves. */
interface Scored {
  command: Command;
  savings: number;
}

/**
 * The commands multi-node consolidation offers for `allowed` (budget-allowed candidates, cheapest to disrupt
 * first), best first: Karpenter's longest prefix when it fits well or nothing does, else the well-fitting
 * commands by saving, up to MaxAlternatives more of them, then Karpenter's. Empty when nothing consolidates.
 */
export function choosePrefix(allowed: readonly Candidate[], ctx: MethodContext): Command[] {
  const longest = longestPrefix(allowed, allowed.length, ctx);
  if (!longest) return [];
  if (fitsWell(longest, ctx)) return [longest];
  const found: Scored[] = [];
  const search: Search = { ctx, found, solveLimit: (ctx.simulator.solves ?? 0) + MaxExtraSolves };
  for (const [i, order] of prefixOrders(allowed).entries()) {
    // Nothing in an order can save more than all of its candidates cost.
    if (exhausted(search) || (prefixCosts(order).at(-1) ?? 0) <= bestSavings(found)) continue;
    const top = i === 0 ? longest : longestPrefix(order, order.length, ctx, search);
    if (top) scanDown(order, top, search);
  }
  const instead = poorFit(longest, ctx);
  const ranked = distinct(found.sort((a, b) => b.savings - a.savings)).slice(0, 1 + MaxAlternatives);
  return [
    ...ranked.map(({ command }) => {
      const chosen: Command = { ...command, preferredOver: instead };
      chosen.summary = describe(chosen);
      return chosen;
    }),
    longest,
  ];
}

/** "delete 88 nodes (…) and replace with m6a.48xlarge, saving $26.1236/h, at 1.13x the fair price of what it would hold". */
function poorFit(cmd: Command, ctx: MethodContext): string {
  const overpay = Math.max(...cmd.replacements.map((r) => ctx.pricing.overpay(r)));
  return `${describeAction(cmd)}, at ${overpay.toFixed(2)}x the fair price of what it would hold`;
}

/** `found` without repeats: the whole set of candidates is a prefix of every order. */
function distinct(found: readonly Scored[]): Scored[] {
  const seen = new Set<string>();
  return found.filter(({ command }) => {
    const key = command.candidates
      .map((c) => c.node.name)
      .sort()
      .join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function bestSavings(found: readonly Scored[]): number {
  return found.reduce((m, f) => Math.max(m, f.savings), 0);
}

function fitsWell(cmd: Command, ctx: MethodContext): boolean {
  return cmd.replacements.every((r) => ctx.pricing.overpay(r) <= MaxReplacementOverpay);
}

function savingsOf(cmd: Command): number {
  return cmd.costBefore - cmd.costAfter;
}

/** The multi-node command for exactly `candidates`, its replacement filtered as Karpenter's filterOutSameType. */
function attempt(candidates: readonly Candidate[], ctx: MethodContext): Command | undefined {
  const r = computeConsolidation(candidates, ctx, 'multi');
  return r.ok ? withoutSameType(r.command, ctx.pricing) : undefined;
}

/**
 * Binary search for the longest prefix of `order`, two to `max` nodes long, that consolidates. Like Karpenter's,
 * it assumes a prefix that fails makes longer ones fail too; where that does not hold it still returns a valid
 * command, just not necessarily the longest.
 */
function longestPrefix(
  order: readonly Candidate[],
  max: number,
  ctx: MethodContext,
  search?: Search,
): Command | undefined {
  let best: Command | undefined;
  let lo = 2;
  let hi = max;
  while (lo <= hi && !(search && exhausted(search))) {
    const mid = Math.floor((lo + hi) / 2);
    const cmd = attempt(order.slice(0, mid), ctx);
    if (cmd) {
      best = cmd;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/**
 * Walks down from the longest consolidating prefix `top`, adding the well-fitting commands it meets to the search's
 * findings. A prefix costing no more than the best saving found so far cannot beat it, which ends the walk, as
 * does running out of simulations.
 */
function scanDown(order: readonly Candidate[], top: Command, search: Search): void {
  const costs = prefixCosts(order);
  const lowest = Math.max(2, top.candidates.length - MaxPrefixScan);
  let best = bestSavings(search.found);
  for (let k = top.candidates.length; k >= lowest; k--) {
    if ((costs[k - 1] ?? 0) <= best) break;
    let cmd: Command | undefined = top;
    if (k < top.candidates.length) {
      if (exhausted(search)) break;
      cmd = attempt(order.slice(0, k), search.ctx);
    }
    if (!cmd || !fitsWell(cmd, search.ctx)) continue;
    const savings = savingsOf(cmd);
    search.found.push({ command: cmd, savings });
    best = Math.max(best, savings);
  }
}

/** Cumulative price of the first 1, 2, … candidates of `order`; unknown prices count as unbounded. */
function prefixCosts(order: readonly Candidate[]): number[] {
  let sum = 0;
  return order.map((c) => (sum += c.node.price ?? Number.POSITIVE_INFINITY));
}

/**
 * Karpenter's order, then the same candidates by their pods' memory per CPU, ascending and descending (ties
 * keep Karpenter's order); an order identical to an earlier one is left out.
 */
export function prefixOrders(allowed: readonly Candidate[]): Candidate[][] {
  const ratio = new Map(allowed.map((c) => [c, memoryPerCpu(c)]));
  const by =
    (sign: number) =>
    (a: Candidate, b: Candidate): number =>
      sign * ((ratio.get(a) ?? 0) - (ratio.get(b) ?? 0));
  const orders = [[...allowed], [...allowed].sort(by(1)), [...allowed].sort(by(-1))];
  return orders.filter((o, i) => !orders.slice(0, i).some((p) => p.every((c, j) => c === o[j])));
}

function memoryPerCpu(c: Candidate): number {
  let cpu = 0;
  let mem = 0;
  for (const p of c.reschedulable) {
    const r = podRequests(p);
    cpu += r['cpu'] ?? 0;
    mem += r['memory'] ?? 0;
  }
  return cpu > 0 ? mem / cpu : 0;
}
