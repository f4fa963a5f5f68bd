/**
 * The virtual pods provisioning and disruption add for CapacityBuffers, read from what capacitybuffer.status
 * resolved (as the cluster-autoscaler reads a buffer's status): a buffer ReadyForProvisioning, with the active
 * capacity strategy, gives `status.replicas` pods shaped like the PodTemplate `status.podTemplateRef` names.
 */
import { ActiveCapacityStrategy } from '../../api/index.js';
import type { Pod } from '../../kube/index.js';
import type { ClusterInformers, StoredCapacityBuffer } from '../../state/informers.js';
import { isTrue } from '../conditions.js';
import { virtualPods } from './resolve.js';

/** The condition CapacityBuffers report readiness with. */
export const ReadyForProvisioning = 'ReadyForProvisioning';

function podsOf(informers: ClusterInformers, b: StoredCapacityBuffer): Pod[] {
  const status = b.status;
  if (!status?.podTemplateRef || !status.replicas || !isTrue(status.conditions, ReadyForProvisioning)) return [];
  const pt = informers.podTemplates.cache.get(`${b.metadata.namespace ?? 'default'}/${status.podTemplateRef.name}`);
  // A template changed since the status was written is not used until the controller has looked again.
  if (!pt || (status.podTemplateGeneration !== undefined && pt.metadata.generation !== status.podTemplateGeneration))
    return [];
  return virtualPods(b, { replicas: status.replicas, template: pt.template });
}

/** The virtual pods of every active-capacity buffer not being deleted. */
export function bufferPods(informers: ClusterInformers): Pod[] {
  const out: Pod[] = [];
  for (const b of informers.capacityBuffers.cache.list()) {
    if (b.metadata.deletionTimestamp) continue;
    if ((b.spec.provisioningStrategy ?? ActiveCapacityStrategy) !== ActiveCapacityStrategy) continue;
    out.push(...podsOf(informers, b));
  }
  return out;
}
