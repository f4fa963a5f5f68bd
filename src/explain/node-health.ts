/**
 * Why an unhealthy node is still there (S5): the repair policy it matches, how long until its toleration runs out;
 * when too many of its NodePool's nodes are unhealthy at once, that repair is blocked and by how many nodes; when
 * the NodePool's disruption budget for Unhealthy is spent, which budget, how many repairs are in flight and when
 * the repair can go ahead. The numbers are node.health's own (the same policy match, rounding and budget).
 */
import { Labels } from '../api/index.js';
import { budgetText } from '../controllers/disruption/budgets/budgets.js';
import { isInitialized, unhealthyBudget, type UnhealthyBudget } from '../controllers/node/health/unhealthy-budget.js';
import { unhealthyCondition, type Unhealthy } from '../controllers/node/health/unhealthy.js';
import type { Node } from '../kube/index.js';
import type { ExplainContext } from './context.js';
import type { Cause } from './model.js';
import { duration } from './units.js';

/** An unhealthy node's cause and fix. */
export interface HealthFinding {
  state: 'Unhealthy' | 'RepairBlocked' | 'RepairWaiting';
  cause: Cause;
  fix: string;
}

function conditionText(u: Unhealthy, now: number): string {
  const c = u.condition;
  const since = u.repairAt - u.policy.tolerationDuration;
  return `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''} for ${duration(now - since)}`;
}

function blocked(ctx: ExplainContext, node: Node, u: Unhealthy): HealthFinding | undefined {
  const pool = node.metadata.labels?.[Labels.nodePool] ?? '';
  const poolNodes = ctx.snapshot.nodes.filter((n) => n.metadata.labels?.[Labels.nodePool] === pool);
  const unhealthy = poolNodes.filter((n) => unhealthyCondition(n, ctx.repair.policies)).length;
  // node.health rounds the share up to a node count, so a small pool can still repair one node.
  const allowed = Math.ceil(ctx.repair.threshold * poolNodes.length - 1e-9);
  if (unhealthy <= allowed) return undefined;
  const pct = Math.round(ctx.repair.threshold * 100);
  const message = `repair blocked: ${unhealthy} of ${poolNodes.length} nodes of NodePool \`${pool}\` are unhealthy, more than ${pct}% (${allowed} allowed); this node is ${conditionText(u, ctx.now)}`;
  return {
    state: 'RepairBlocked',
    cause: {
      constraint: 'repair-threshold',
      object: `NodePool/${pool}`,
      numbers: { unhealthy, nodes: poolNodes.length, allowed, threshold: `${pct}%` },
      message,
    },
    fix: `look for a network or control-plane incident first; Tenon repairs once at most ${allowed} of the ${poolNodes.length} nodes are unhealthy (NODE_REPAIR_UNHEALTHY_THRESHOLD)`,
  };
}

/** The NodePool's Unhealthy budget when it leaves no repair now, else undefined. */
function spentBudget(ctx: ExplainContext, node: Node): (UnhealthyBudget & { pool: string }) | undefined {
  const nc = ctx.index.claimOf(node);
  // A NodeClaim that never initialized is repaired regardless of budgets; one being deleted is being repaired.
  if (!nc || nc.metadata.deletionTimestamp || !isInitialized(nc)) return undefined;
  const pool = node.metadata.labels?.[Labels.nodePool] ?? '';
  const b = unhealthyBudget({ name: pool, nodePool: ctx.pools.get(pool)?.pool }, ctx.snapshot.nodeClaims, ctx.now);
  return b.allowed - b.repairing.length > 0 ? undefined : { ...b, pool };
}

/** Which budget, as the user wrote it or as the API defaults it. */
function whichBudget(ctx: ExplainContext, b: UnhealthyBudget & { pool: string }): string {
  const own = (ctx.pools.get(b.pool)?.pool.spec.disruption?.budgets?.length ?? 0) > 0;
  const text = b.budget ? budgetText(b.budget) : '';
  return `NodePool \`${b.pool}\`'s ${own ? '' : 'default '}disruption budget ${text}`;
}

/** When a repair held by the budget can go ahead. */
function whenAllowed(b: UnhealthyBudget, now: number): string {
  const inFlight = b.repairing.length > 0 ? 'once a repair in flight finishes' : undefined;
  const window =
    b.windowEnds !== undefined ? `when the budget window ends in ${duration(b.windowEnds - now)}` : undefined;
  const parts = [inFlight, window].filter((x): x is string => x !== undefined);
  return parts.length > 0 ? parts.join(' or ') : 'only once the budget changes';
}

function budgetWait(ctx: ExplainContext, node: Node, u: Unhealthy): HealthFinding | undefined {
  const b = spentBudget(ctx, node);
  if (!b) return undefined;
  const which = whichBudget(ctx, b);
  const repairing = b.repairing.length
    ? `${b.repairing.length} being repaired (${b.repairing.map((n) => `NodeClaim \`${n}\``).join(', ')})`
    : 'none being repaired';
  const when = whenAllowed(b, ctx.now);
  const message = `repair waits for ${which}: it allows ${b.allowed} of ${b.numNodes} nodes at a time, ${repairing}; this node is ${conditionText(u, ctx.now)}; Tenon repairs it ${when}`;
  return {
    state: 'RepairWaiting',
    cause: {
      constraint: 'budget',
      object: `NodePool/${b.pool}`,
      numbers: {
        budget: b.budget?.nodes ?? '',
        allowed: b.allowed,
        nodes: b.numNodes,
        repairing: b.repairing.length,
        ...(b.windowEnds !== undefined ? { windowEndsIn: duration(b.windowEnds - ctx.now) } : {}),
      },
      message,
    },
    fix:
      b.allowed === 0
        ? `let repairs through: change ${which.replace(/^NodePool `[^`]+`'s /, '')} in spec.disruption.budgets of NodePool \`${b.pool}\` (it allows none), or delete the NodeClaim to replace the node now`
        : `nothing to do: Tenon repairs it ${when}; to repair more nodes at a time, raise the budget's nodes in spec.disruption.budgets of NodePool \`${b.pool}\``,
  };
}

/** The node's health finding, or undefined when it matches no repair policy. */
export function healthFinding(ctx: ExplainContext, node: Node): HealthFinding | undefined {
  const u = unhealthyCondition(node, ctx.repair.policies);
  if (!u) return undefined;
  const name = node.metadata.name ?? '';
  const left = u.repairAt - ctx.now;
  // Blocked now means blocked when the toleration ends too, unless nodes recover first.
  const stop = blocked(ctx, node, u);
  if (stop) return stop;
  if (left <= 0) {
    const waits = budgetWait(ctx, node, u);
    if (waits) return waits;
  }
  const when = left > 0 ? `in ${duration(left)}` : 'now';
  // A budget spent now may allow the repair by then: said, not assumed.
  const spent = left > 0 ? spentBudget(ctx, node) : undefined;
  const unless = spent ? `, if ${whichBudget(ctx, spent)} allows it then (it allows none now)` : '';
  const message = `${conditionText(u, ctx.now)}; Tenon repairs it ${when}, after the ${duration(u.policy.tolerationDuration)} toleration${unless}`;
  return {
    state: 'Unhealthy',
    cause: {
      constraint: 'node-repair',
      object: `Node/${name}`,
      numbers: {
        condition: `${u.condition.type}=${u.condition.status}`,
        toleration: duration(u.policy.tolerationDuration),
        repairIn: duration(Math.max(0, left)),
      },
      message,
    },
    fix: `nothing to do: the NodeClaim is replaced ${when}; to act sooner, check the kubelet on node \`${name}\` or delete its NodeClaim`,
  };
}
