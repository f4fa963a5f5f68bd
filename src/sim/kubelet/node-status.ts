/** The node conditions a kubelet posts, from its health and faults. */
import type { NodeCondition } from '../../kube/index.js';

/** What the kubelet knows about its own health. */
export interface NodeHealth {
  ready: boolean;
  memoryPressure: boolean;
}

function cond(type: string, status: boolean, reason: string, message: string): NodeCondition {
  return { type, status: status ? 'True' : 'False', reason, message };
}

/** The conditions for `health`, keeping each transition time unless the status changed. */
export function nodeConditions(health: NodeHealth, previous: readonly NodeCondition[], now: string): NodeCondition[] {
  const next = [
    health.memoryPressure
      ? cond('MemoryPressure', true, 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available')
      : cond('MemoryPressure', false, 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    cond('DiskPressure', false, 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    cond('PIDPressure', false, 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    health.ready
      ? cond('Ready', true, 'KubeletReady', 'kubelet is posting ready status')
      : cond(
          'Ready',
          false,
          'KubeletNotReady',
          'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
        ),
  ];
  return next.map((c) => {
    const old = previous.find((p) => p.type === c.type);
    const since = old && old.status === c.status ? (old.lastTransitionTime ?? now) : now;
    return { ...c, lastHeartbeatTime: now, lastTransitionTime: since };
  });
}

/** Lease renewTime text (metav1.MicroTime). */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '000Z');
}
