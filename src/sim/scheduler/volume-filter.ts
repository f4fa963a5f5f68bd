/**
 * The volume objects as the scheduling engine takes them, and kube-scheduler's VolumeBinding PreFilter: an
 * unbound Immediate claim (or a missing one) stops the pod before any node is considered. Per-node volume rules
 * (PV node affinity, allowed topologies, CSI attach limits) are the placement checker's (feasibility.ts).
 */
import type { Pod } from '../../kube/index.js';
import { podVolumes, type VolumeInfo } from '../../scheduling/index.js';
import type { CsiNode, PersistentVolume, PersistentVolumeClaim, StorageClass } from '../world/resources.js';
import { asSchedPod } from './sched-pod.js';

/** The volume objects the scheduler reads. */
export interface VolumeObjects {
  claims: readonly PersistentVolumeClaim[];
  volumes: readonly PersistentVolume[];
  storageClasses: readonly StorageClass[];
  csiNodes: readonly CsiNode[];
}

/** The scheduling engine's view of the volume objects. */
export function volumeInfo(objs: VolumeObjects): VolumeInfo {
  const info: Required<VolumeInfo> = { claims: {}, volumes: {}, storageClasses: {} };
  for (const c of objs.claims) {
    info.claims[`${c.metadata.namespace ?? 'default'}/${c.metadata.name ?? ''}`] = {
      storageClassName: c.spec.storageClassName,
      volumeName: c.spec.volumeName || undefined,
    };
  }
  for (const v of objs.volumes) {
    info.volumes[v.metadata.name ?? ''] = {
      nodeAffinity: v.spec.nodeAffinity?.required?.nodeSelectorTerms,
      driver: v.spec.csi?.driver,
    };
  }
  for (const sc of objs.storageClasses) {
    const name = sc.metadata.name ?? '';
    info.storageClasses[name] = {
      name,
      provisioner: sc.provisioner,
      volumeBindingMode: sc.volumeBindingMode,
      allowedTopologies: sc.allowedTopologies,
    };
  }
  return info;
}

/** What blocks the pod before filtering (kube-scheduler's VolumeBinding PreFilter), if anything. */
export function volumePreFilter(pod: Pod, info: VolumeInfo): string | undefined {
  const v = podVolumes(asSchedPod(pod), info);
  if (!v.error) return undefined;
  if (v.error.includes('not found')) {
    const name = v.error.split(' ')[1]?.split('/')[1] ?? '';
    return `persistentvolumeclaim "${name}" not found`;
  }
  return 'pod has unbound immediate PersistentVolumeClaims';
}
