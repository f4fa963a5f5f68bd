/**
 * Why an unhealthy node is still there (S5): the repair policy it matches, how long until its toleration runs out,
 * or, when too many of its NodePool's nodes are unhealthy at once, that repair is blocked and by how many nodes.
 * The numbers are node.health's own (the same policy match and threshold rounding).
 */
import { Labels } from '../api/index.js';
import { unhealthyCondition, type Unhealthy } from '../controllers/node/health/unhealthy.js';
import type { Node } from '../kube/index.js';
import type { ExplainContext } from './context.js';
import type { Cause } from './model.js';
import { duration } from './units.js';

/** An unhealthy node's cause and fix. */
export interface HealthFinding {
  state: 'Unhealthy' | 'RepairBlocked';
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

/** The node's health finding, or undefined when it matches no repair policy. */
export function healthFinding(ctx: ExplainContext, node: Node): HealthFinding | undefined {
  const u = unhealthyCondition(node, ctx.repair.policies);
  if (!u) return undefined;
  const name = node.metadata.name ?? '';
  const left = u.repairAt - ctx.now;
  // Blocked now means blocked when the toleration ends too, unless nodes recover first.
  const stop = blocked(ctx, node, u);
  if (stop) return stop;
  const when = left > 0 ? `in ${duration(left)}` : 'now';
  const message = `${conditionText(u, ctx.now)}; Tenon repairs it ${when}, after the ${duration(u.policy.tolerationDuration)} toleration`;
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
