/** When the node lifecycle controller last heard from a kubelet, and the conditions it posts when it has not. */
import type { Lease, Node, NodeCondition } from '../../kube/index.js';

/** The reason and message kube-controller-manager writes when the kubelet went silent. */
export const NodeStatusUnknown = {
  reason: 'NodeStatusUnknown',
  message: 'Kubelet stopped posting node status.',
} as const;
/** … and when it never posted at all. */
export const NodeStatusNeverUpdated = {
  reason: 'NodeStatusNeverUpdated',
  message: 'Kubelet never posted node status.',
} as const;

const watched = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

function parse(t: string | undefined): number {
  const ms = t ? Date.parse(t) : NaN;
  return Number.isFinite(ms) ? ms : 0;
}

/** The latest sign of life: the Lease renewal or the Ready heartbeat, else the node's creation. */
export function lastHeard(node: Node, lease: Lease | undefined): number {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  return Math.max(
    parse(lease?.spec?.renewTime),
    parse(ready?.lastHeartbeatTime),
    parse(node.metadata.creationTimestamp),
  );
}

/** The conditions with every watched one set to Unknown (kept as they are when already Unknown); undefined when nothing changes. */
export function unknownConditions(node: Node, now: string): NodeCondition[] | undefined {
  const current = node.status?.conditions ?? [];
  let changed = false;
  const next = current.map((c) => {
    if (!watched.includes(c.type) || c.status === 'Unknown') return c;
    changed = true;
    return { ...c, status: 'Unknown' as const, ...NodeStatusUnknown, lastTransitionTime: now };
  });
  for (const type of watched) {
    if (next.some((c) => c.type === type)) continue;
    changed = true;
    next.push({ type, status: 'Unknown', ...NodeStatusNeverUpdated, lastHeartbeatTime: now, lastTransitionTime: now });
  }
  return changed ? next : undefined;
}
