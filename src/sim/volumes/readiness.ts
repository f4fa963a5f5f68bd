/** Whether a pod's volumes are ready on a node, as the kubelet's volume manager waits for: claims bound, CSI volumes attached. */
import type { Pod } from '../../kube/index.js';
import { claimNames } from '../scheduler/volume-binding.js';
import type { InformerSet } from '../world/informers.js';
import {
  SimResources,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type VolumeAttachment,
} from '../world/resources.js';

/** The VolumeAttachment name for a volume on a node (deterministic, as the CSI attacher's hash is). */
export function attachmentName(driver: string, pv: string, node: string): string {
  let h = 0x811c9dc5;
  for (const ch of `${pv}${driver}${node}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return `csi-${h.toString(16).padStart(8, '0')}${pv.length.toString(16)}`;
}

/** The bound PVs a pod mounts (claims not yet bound are reported as undefined entries). */
export function podVolumesBound(informers: InformerSet, pod: Pod): Array<PersistentVolume | undefined> {
  const ns = pod.metadata.namespace ?? 'default';
  const claims = informers.get<PersistentVolumeClaim>(SimResources.persistentVolumeClaims).cache;
  const pvs = informers.get<PersistentVolume>(SimResources.persistentVolumes).cache;
  return claimNames(pod).map((name) => {
    const volume = claims.get(`${ns}/${name}`)?.spec.volumeName;
    return volume ? pvs.get(volume) : undefined;
  });
}

/** True when every claim of the pod is bound and every CSI volume is attached to `node`. */
export function volumesReady(informers: InformerSet, pod: Pod, node: string): boolean {
  const attachments = informers.get<VolumeAttachment>(SimResources.volumeAttachments).cache;
  return podVolumesBound(informers, pod).every((pv) => {
    if (!pv) return false;
    const driver = pv.spec.csi?.driver;
    if (!driver) return true;
    return attachments.get(attachmentName(driver, pv.metadata.name ?? '', node))?.status?.attached === true;
  });
}
