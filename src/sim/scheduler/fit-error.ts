/** kube-scheduler's FitError text: "0/N nodes are available: 2 Insufficient cpu, 1 node(s) had untolerated taint {…}." */

/** Why each node was rejected (node name → reasons), or a PreFilter reason that rejected them all. */
export interface Diagnosis {
  nodeCount: number;
  reasons: ReadonlyMap<string, readonly string[]>;
  preFilter?: string;
  /** The PostFilter's (preemption's) own text, ending with a period; by default no node could help. */
  preemption?: string;
}

/** The message of a PodScheduled=False/Unschedulable condition and its FailedScheduling event. */
export function fitErrorMessage(d: Diagnosis): string {
  if (d.nodeCount === 0) return 'no nodes available to schedule pods';
  const n = d.nodeCount;
  // The PostFilter's message ends with a period and the FitError adds its own: kube-scheduler prints "..".
  const preemption = ` preemption: ${d.preemption ?? `0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`}.`;
  if (d.preFilter) return `0/${n} nodes are available: ${d.preFilter}.${preemption}`;
  const counts = new Map<string, number>();
  for (const reasons of d.reasons.values()) for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const parts = [...counts].map(([reason, count]) => `${count} ${reason}`).sort();
  return `0/${n} nodes are available: ${parts.join(', ')}.${preemption}`;
}
