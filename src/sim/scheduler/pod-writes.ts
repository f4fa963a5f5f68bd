/**
 * What kube-scheduler writes about pods: the PodScheduled=False condition and nomination of a pod that fits nowhere,
 * the binding of one that fits, and the eviction of preemption victims.
 */
import { rfc3339 } from '../../clock/index.js';
import { isNotFound, updateWithRetry, type EventSpec, type KubeClient, type Pod } from '../../kube/index.js';
import { SimResources } from '../world/resources.js';
import type { Candidate } from './preemption.js';

function nominationAfter(status: Pod['status'], nominate: string | null | undefined): string | undefined {
  return nominate === undefined ? status?.nominatedNodeName : (nominate ?? undefined);
}

/** The pod status with PodScheduled=False/Unschedulable and the nomination decided; undefined when nothing changes. */
function unschedulableStatus(
  status: Pod['status'],
  change: { message: string; nominate: string | null | undefined; now: string },
): Pod['status'] | undefined {
  const conditions = status?.conditions ?? [];
  const old = conditions.find((c) => c.type === 'PodScheduled');
  const nominated = nominationAfter(status, change.nominate);
  const wasUnschedulable = old?.status === 'False' && old.reason === 'Unschedulable';
  if (wasUnschedulable && old.message === change.message && nominated === status?.nominatedNodeName) return undefined;
  const next = {
    type: 'PodScheduled',
    status: 'False' as const,
    reason: 'Unschedulable',
    message: change.message,
    lastTransitionTime: old?.status === 'False' ? old.lastTransitionTime : change.now,
  };
  const { nominatedNodeName: _dropped, ...rest } = status ?? {};
  const scheduled = [...conditions.filter((c) => c.type !== 'PodScheduled'), next];
  return {
    ...rest,
    phase: rest.phase ?? 'Pending',
    conditions: scheduled,
    ...(nominated ? { nominatedNodeName: nominated } : {}),
  };
}

/**
 * Marks the pod Unschedulable with `message`; `nominate` sets (a node), clears (null) or keeps (undefined) its
 * nominated node. False when the pod is gone.
 */
export async function writeUnschedulable(
  client: KubeClient,
  pod: Pod,
  change: { message: string; nominate: string | null | undefined; now: number },
): Promise<boolean> {
  const now = rfc3339(change.now);
  try {
    await updateWithRetry<Pod>({
      client,
      resource: SimResources.pods,
      ref: { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace },
      current: pod,
      subresource: 'status',
      mutate: (fresh) => {
        if (fresh.spec.nodeName) return undefined;
        const status = unschedulableStatus(fresh.status, { message: change.message, nominate: change.nominate, now });
        return status ? { ...fresh, status } : undefined;
      },
    });
    return true;
  } catch (e) {
    if (!isNotFound(e)) throw e;
    return false;
  }
}

/** Binds the pod to `node` through the pods/binding subresource. */
export async function postBinding(
  client: KubeClient,
  pod: { namespace: string; name: string },
  node: string,
): Promise<void> {
  const { namespace, name } = pod;
  await client.call('bind pod', {
    method: 'POST',
    path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/binding`,
    body: {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name, namespace },
      target: { apiVersion: 'v1', kind: 'Node', name: node },
    },
  });
}

/** Deletes the victims gracefully, each marked DisruptionTarget and told who preempted it, as kube-scheduler does. */
export async function evictVictims(
  client: KubeClient,
  preemptor: Pod,
  c: Candidate,
  at: { now: number; publish: (victim: Pod, e: EventSpec) => Promise<void> },
): Promise<void> {
  const condition = {
    type: 'DisruptionTarget',
    status: 'True',
    reason: 'PreemptionByScheduler',
    message: 'default-scheduler: preempting to accommodate a higher priority pod',
    lastTransitionTime: rfc3339(at.now),
  };
  for (const v of c.victims) {
    const ref = { name: v.metadata.name ?? '', namespace: v.metadata.namespace };
    try {
      const conditions = [...(v.status?.conditions ?? []).filter((x) => x.type !== 'DisruptionTarget'), condition];
      await client.patch(SimResources.pods, ref, { status: { conditions } }, { subresource: 'status' });
      await client.delete(SimResources.pods, ref);
      await at.publish(v, {
        type: 'Normal',
        reason: 'Preempted',
        message: `Preempted by pod ${preemptor.metadata.uid ?? ''} on node ${c.node}`,
      });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
