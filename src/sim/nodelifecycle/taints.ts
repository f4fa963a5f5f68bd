/** The taints the node lifecycle controller keeps in step with a node's conditions (TaintNodesByCondition and taint-based eviction). */
import type { Taint } from '../../api/index.js';
import type { Node } from '../../kube/index.js';

/** The keys this controller owns. */
export const ConditionTaintKeys = {
  notReady: 'node.kubernetes.io/not-ready',
  unreachable: 'node.kubernetes.io/unreachable',
  memoryPressure: 'node.kubernetes.io/memory-pressure',
  diskPressure: 'node.kubernetes.io/disk-pressure',
  pidPressure: 'node.kubernetes.io/pid-pressure',
  unschedulable: 'node.kubernetes.io/unschedulable',
} as const;

const owned = new Set<string>(Object.values(ConditionTaintKeys));

function status(node: Node, type: string): string | undefined {
  return node.status?.conditions?.find((c) => c.type === type)?.status;
}

/** The condition taints a node should carry now. */
export function desiredConditionTaints(node: Node): Taint[] {
  const out: Taint[] = [];
  const ready = status(node, 'Ready');
  if (ready === 'False')
    out.push(
      { key: ConditionTaintKeys.notReady, effect: 'NoSchedule' },
      { key: ConditionTaintKeys.notReady, effect: 'NoExecute' },
    );
  if (ready === 'Unknown')
    out.push(
      { key: ConditionTaintKeys.unreachable, effect: 'NoSchedule' },
      { key: ConditionTaintKeys.unreachable, effect: 'NoExecute' },
    );
  if (status(node, 'MemoryPressure') === 'True')
    out.push({ key: ConditionTaintKeys.memoryPressure, effect: 'NoSchedule' });
  if (status(node, 'DiskPressure') === 'True') out.push({ key: ConditionTaintKeys.diskPressure, effect: 'NoSchedule' });
  if (status(node, 'PIDPressure') === 'True') out.push({ key: ConditionTaintKeys.pidPressure, effect: 'NoSchedule' });
  if (node.spec?.unschedulable) out.push({ key: ConditionTaintKeys.unschedulable, effect: 'NoSchedule' });
  return out;
}

const same = (a: Taint, b: Taint): boolean => a.key === b.key && a.effect === b.effect;

/** The node's taints with the owned ones brought in line; undefined when nothing changes. Other taints are kept as they are. */
export function reconcileTaints(node: Node, now: string): Taint[] | undefined {
  const current = node.spec?.taints ?? [];
  const desired = desiredConditionTaints(node);
  const kept = current.filter((t) => !owned.has(t.key) || desired.some((d) => same(d, t)));
  const added = desired
    .filter((d) => !current.some((t) => same(d, t)))
    .map((t) => (t.effect === 'NoExecute' ? { ...t, timeAdded: now } : t));
  if (added.length === 0 && kept.length === current.length) return undefined;
  return [...kept, ...added];
}
