import type { Pod } from '../../kube/index.js';
import type { ClusterInformers, StoredCapacityBuffer } from '../../state/informers.js';
import { resolveBuffer, virtualPods, type ResolvedBuffer } from './resolve.js';
import { ConditionReasons } from '../../api/index.js';

/** A buffer resolved against the cluster as the informers see it. */
export function resolveFromCache(informers: ClusterInformers, b: StoredCapacityBuffer): ResolvedBuffer {
  const ref = b.spec.scalableRef;
  const apps = ref && (ref.apiGroup ?? 'apps') === 'apps' && ref.kind === 'Deployment';
  const scalable = apps
    ? informers.deployments.cache.get(`${b.metadata.namespace ?? 'default'}/${ref.name}`)
    : undefined;
  if (ref && !apps)
    return {
      ok: false,
      reason: ConditionReasons.scalableNotSupported,
      message: `scalableRef ${ref.apiGroup ?? ''}/${ref.kind} is not supported; name an apps/v1 Deployment`,
    };
  return resolveBuffer(b, scalable);
}

/** The virtual pods of every active-capacity buffer not being deleted. */
export function bufferPods(informers: ClusterInformers): Pod[] {
  const out: Pod[] = [];
  for (const b of informers.capacityBuffers.cache.list()) {
    if (b.metadata.deletionTimestamp) continue;
    if ((b.spec.provisioningStrategy ?? 'buffer.x-k8s.io/active-capacity') !== 'buffer.x-k8s.io/active-capacity')
      continue;
    const r = resolveFromCache(informers, b);
    if (r.ok) out.push(...virtualPods(b, r));
  }
  return out;
}
