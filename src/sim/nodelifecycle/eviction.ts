/**
 * Taint-based eviction (kube-controller-manager's NoExecute taint manager): a pod on a node with a NoExecute
 * taint it does not tolerate is deleted at once; one it tolerates for `tolerationSeconds` is deleted that long
 * after the taint was added. Pods without their own not-ready/unreachable tolerations get the 300 s ones the
 * API server's DefaultTolerationSeconds admission plugin adds.
 */
import type { Taint, Toleration } from '../../api/index.js';
import type { Pod } from '../../kube/index.js';
import { tolerates } from '../../scheduling/index.js';
import { ConditionTaintKeys } from './taints.js';

/** DefaultTolerationSeconds' default. */
export const DefaultTolerationSeconds = 300;

function withDefaults(pod: Pod): Toleration[] {
  const tolerations = [...(pod.spec.tolerations ?? [])];
  for (const key of [ConditionTaintKeys.notReady, ConditionTaintKeys.unreachable]) {
    const has = tolerations.some(
      (t) => (t.key === key || (!t.key && t.operator === 'Exists')) && (!t.effect || t.effect === 'NoExecute'),
    );
    if (!has)
      tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DefaultTolerationSeconds });
  }
  return tolerations;
}

/** When (ms since the epoch) the pod must be evicted from a node with `taints`, or undefined for never. */
export function evictionTime(pod: Pod, taints: readonly Taint[], fallbackAdded: number): number | undefined {
  let at: number | undefined;
  const tolerations = withDefaults(pod);
  for (const taint of taints) {
    if (taint.effect !== 'NoExecute') continue;
    const added = taint.timeAdded ? Date.parse(taint.timeAdded) : fallbackAdded;
    const matching = tolerations.filter((t) => tolerates(t, taint));
    if (matching.length === 0) return added;
    // As the taint manager's minimum toleration time: tolerations without seconds do not count unless all lack them.
    const seconds = matching.map((t) => t.tolerationSeconds).filter((s): s is number => s !== undefined);
    if (seconds.length === 0) continue;
    const due = added + Math.max(0, Math.min(...seconds)) * 1000;
    at = at === undefined ? due : Math.min(at, due);
  }
  return at;
}
