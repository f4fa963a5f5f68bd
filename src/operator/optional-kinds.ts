/**
 * Kinds newer than some installed CRD sets (NodeOverlay, CapacityBuffer): on a cluster installed with older CRDs
 * their informers would never sync and the operator would wait forever. Such a kind is probed once at start; when
 * the API server does not serve it, a warning says so and its informer (and so its controller) stays off.
 */
import { isNotFound, Resources, type KubeClient } from '../kube/index.js';
import type { Logger } from '../observability/logger.js';
import type { ClusterInformers } from '../state/informers.js';

const optional = [
  { informer: 'nodeOverlays', resource: Resources.nodeOverlays, kind: 'NodeOverlay (karpenter.sh/v1alpha1)' },
  {
    informer: 'capacityBuffers',
    resource: Resources.capacityBuffers,
    kind: 'CapacityBuffer (autoscaling.x-k8s.io/v1beta1)',
  },
] as const;

/** The informers of optional kinds the cluster does not serve (each logged once as a warning). */
export async function unservedKinds(client: KubeClient, log: Logger): Promise<Set<keyof ClusterInformers>> {
  const out = new Set<keyof ClusterInformers>();
  for (const o of optional) {
    try {
      await client.list(o.resource, { limit: 1 });
    } catch (e: unknown) {
      if (!isNotFound(e)) continue;
      out.add(o.informer);
      log.warn(
        { kind: o.kind },
        `the ${o.kind} CRD is not installed: its controller is disabled; apply the CRDs of this release (charts/tenon/crds) to enable it`,
      );
    }
  }
  return out;
}
