import type { RepairPolicy } from '../../../cloudprovider/index.js';
import type { Node, NodeCondition } from '../../../kube/index.js';

/** A Node condition matching a repair policy, and when its toleration runs out. */
export interface Unhealthy {
  policy: RepairPolicy;
  condition: NodeCondition;
  /** Clock time (ms) at which the node may be repaired. */
  repairAt: number;
}

/** The first policy the Node currently matches (earliest repair time first), or undefined when healthy. */
export function unhealthyCondition(node: Node, policies: readonly RepairPolicy[]): Unhealthy | undefined {
  let found: Unhealthy | undefined;
  for (const policy of policies) {
    const condition = node.status?.conditions?.find(
      (c) => c.type === policy.conditionType && c.status === policy.conditionStatus,
    );
    if (!condition) continue;
    const since =
      Date.parse(condition.lastTransitionTime ?? '') || Date.parse(node.metadata.creationTimestamp ?? '') || 0;
    const repairAt = since + policy.tolerationDuration;
    if (!found || repairAt < found.repairAt) found = { policy, condition, repairAt };
  }
  return found;
}
