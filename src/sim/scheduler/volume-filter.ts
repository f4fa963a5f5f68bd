/**
 * Volume filters (kube-scheduler's VolumeBinding, VolumeZone and NodeVolumeLimits): a bound PV's node affinity
 * must admit the node, a WaitForFirstConsumer claim's allowed topologies too, an unbound Immediate claim stops
 * the pod before any node is considered, and CSI attach limits (CSINode) cap the volumes per node.
 */
import type { Pod } from '../../kube/index.js';
import { podVolumes, type PodVolumes, type VolumeInfo } from '../../scheduling/index.js';
import type { CsiNode, PersistentVolume, PersistentVolumeClaim, StorageClass } from '../world/resources.js';
import type { NodeFilter } from './filters.js';
import type { NodeInfo } from './node-info.js';
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
    info.claims[`${c.metadata.namespace ?? 'default'}/${c.metadata.name ?? ''}`] = { storageClassName: c.spec.storageClassName, volumeName: c.spec.volumeName || undefined };
  }
  for (const v of objs.volumes) {
    info.volumes[v.metadata.name ?? ''] = { nodeAffinity: v.spec.nodeAffinity?.required?.nodeSelectorTerms, driver: v.spec.csi?.driver };
  }
  for (const sc of objs.storageClasses) {
    const name = sc.metadata.name ?? '';
    info.storageClasses[name] = { name, provisioner: sc.provisioner, volumeBindingMode: sc.volumeBindingMode, allowedTopologies: sc.allowedTopologies };
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

function attachLimit(csiNodes: readonly CsiNode[], node: string, driver: string): number | undefined {
  const d = csiNodes.find((c) => c.metadata.name === node)?.spec.drivers.find((x) => x.name === driver);
  return d?.allocatable?.count;
}

function overLimit(v: PodVolumes, n: NodeInfo, ctx: { info: VolumeInfo; csiNodes: readonly CsiNode[] }): boolean {
  const used = new Map<string, Set<string>>();
  for (const p of n.pods) {
    for (const a of podVolumes(asSchedPod(p), ctx.info).attachments) {
      const set = used.get(a.driver) ?? new Set<string>();
      set.add(a.id);
      used.set(a.driver, set);
    }
  }
  for (const a of v.attachments) {
    const limit = attachLimit(ctx.csiNodes, n.name, a.driver);
    const set = used.get(a.driver) ?? new Set<string>();
    if (set.has(a.id)) continue;
    set.add(a.id);
    used.set(a.driver, set);
    if (limit !== undefined && set.size > limit) return true;
  }
  return false;
}

/** The volume filter for one scheduling cycle. */
export function volumeFilter(objs: VolumeObjects): NodeFilter {
  const info = volumeInfo(objs);
  return (pod, n) => {
    const v = podVolumes(asSchedPod(pod), info);
    if (!v.requirements.matchesLabels(n.labels)) {
      const unbound = (pod.spec.volumes ?? []).some((vol) => {
        const claim = (vol as { persistentVolumeClaim?: { claimName: string } }).persistentVolumeClaim;
        return claim && !info.claims?.[`${pod.metadata.namespace ?? 'default'}/${claim.claimName}`]?.volumeName;
      });
      return [unbound ? "node(s) didn't find available persistent volumes to bind" : 'node(s) had volume node affinity conflict'];
    }
    return overLimit(v, n, { info, csiNodes: objs.csiNodes }) ? ['node(s) exceed max volume count'] : [];
  };
}
