/**
 * NodePool disruption budgets, with Karpenter's semantics: a budget applies to the reasons it lists (all when
 * none), is active always or for `duration` after each firing of its UTC cron `schedule`, and allows `nodes`
 * as a count or a percentage of the NodePool's nodes rounded up. The most restrictive active budget wins;
 * nodes already being disrupted (marked, deleting, or not Ready) are subtracted.
 */
import type { Budget } from '../../../api/index.js';
import { parseDuration } from '../../../settings/duration.js';
import type { DisruptionNode, DisruptionNodePool, DisruptionReason } from '../types.js';
import { lastFiring, parseCron } from './cron.js';

/** No active budget: unlimited (Karpenter uses MaxInt32). */
export const Unlimited = 2_147_483_647;

/** Whether a budget is active at `now`; a budget that cannot be read is active (fail closed, as Karpenter). */
export function budgetActive(b: Budget, now: number): boolean {
  if (!b.schedule) return true;
  const cron = parseCron(b.schedule);
  const window = b.duration ? parseDuration(b.duration) : undefined;
  if (!cron.ok || window === undefined) return true;
  return lastFiring(cron.schedule, now, window) !== undefined;
}

/** The nodes a budget allows for a NodePool of `numNodes`: counts as given, percentages rounded up. */
export function budgetNodes(b: Budget, numNodes: number): number {
  const text = b.nodes;
  if (text.endsWith('%')) {
    const pct = Number(text.slice(0, -1));
    // Rounding up, as Kubernetes does for PDB maxUnavailable: 10% of 5 nodes allows 1 rather than blocking.
    return Number.isFinite(pct) ? Math.ceil((pct * numNodes) / 100) : 0;
  }
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

/** The budgets of a NodePool, with the API's default of 10% when none are set. */
export function budgetsOf(pool: DisruptionNodePool): Budget[] {
  return pool.budgets.length ? pool.budgets : [{ nodes: '10%' }];
}

/** The most restrictive active budget's allowance for `reason`, before subtracting nodes in disruption. */
export function allowedByBudgets(
  pool: DisruptionNodePool,
  args: { reason: DisruptionReason; numNodes: number; now: number },
): number {
  return mostRestrictiveBudget(pool, args).allowed;
}

/** The most restrictive active budget for `reason` and what it allows (no budget: Unlimited). */
export function mostRestrictiveBudget(
  pool: DisruptionNodePool,
  args: { reason: DisruptionReason; numNodes: number; now: number },
): { allowed: number; budget: Budget | undefined } {
  let out: { allowed: number; budget: Budget | undefined } = { allowed: Unlimited, budget: undefined };
  for (const b of budgetsOf(pool)) {
    if (b.reasons?.length && !b.reasons.includes(args.reason)) continue;
    if (!budgetActive(b, args.now)) continue;
    const n = budgetNodes(b, args.numNodes);
    if (n < out.allowed) out = { allowed: n, budget: b };
  }
  return out;
}

/** When an active scheduled budget's window ends; undefined for a budget always active (or unreadable). */
export function budgetWindowEnd(b: Budget, now: number): number | undefined {
  if (!b.schedule) return undefined;
  const cron = parseCron(b.schedule);
  const window = b.duration ? parseDuration(b.duration) : undefined;
  if (!cron.ok || window === undefined) return undefined;
  const fired = lastFiring(cron.schedule, now, window);
  return fired === undefined ? undefined : fired + window;
}

/** Node counts of one NodePool as budgets see them. */
export interface PoolCounts {
  /** Managed, initialized nodes whose instance is not terminating. */
  numNodes: number;
  /** Of those, the ones not Ready or already being disrupted. */
  disrupting: number;
}

/** Counts nodes per NodePool as Karpenter's BuildDisruptionBudgetMapping does. */
export function countNodes(nodes: readonly DisruptionNode[]): Map<string, PoolCounts> {
  const out = new Map<string, PoolCounts>();
  for (const n of nodes) {
    if (!n.nodePool || !n.nodeClaim || n.initialized === false || n.instanceTerminating) continue;
    const c = out.get(n.nodePool) ?? { numNodes: 0, disrupting: 0 };
    c.numNodes++;
    if (!n.ready || n.deleting) c.disrupting++;
    out.set(n.nodePool, c);
  }
  return out;
}

/** Per NodePool, the budget's allowance for the reason (for the metric) and what is left of it now. */
export interface Allowance {
  allowed: number;
  remaining: number;
  /** Nodes of the NodePool disrupting now, which the allowance is spent on. */
  consuming: number;
}

/** How many more nodes each NodePool may have disrupted for `reason` right now. */
export function allowances(
  pools: readonly DisruptionNodePool[],
  nodes: readonly DisruptionNode[],
  at: { reason: DisruptionReason; now: number },
): Map<string, Allowance> {
  const counts = countNodes(nodes);
  const out = new Map<string, Allowance>();
  for (const pool of pools) {
    const c = counts.get(pool.name) ?? { numNodes: 0, disrupting: 0 };
    const allowed = allowedByBudgets(pool, { reason: at.reason, numNodes: c.numNodes, now: at.now });
    out.set(pool.name, { allowed, remaining: Math.max(0, allowed - c.disrupting), consuming: c.disrupting });
  }
  return out;
}

/** A budget as its spec reads: `"1"`, `"0" from "0 9 * * 1-5" for 8h`, `… for Unhealthy`. */
export function budgetText(b: Budget): string {
  return `"${b.nodes}"${b.schedule ? ` from "${b.schedule}" for ${b.duration ?? '?'}` : ''}${b.reasons?.length ? ` for ${b.reasons.join(', ')}` : ''}`;
}
