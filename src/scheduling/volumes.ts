/**
 * Volume topology (SCENARIOS.md S4): a bound PV's node affinity is a hard requirement; an unbound claim whose
 * StorageClass binds Immediate makes the pod wait; WaitForFirstConsumer restricts zones to the StorageClass's
 * allowedTopologies. Also lists the CSI volumes a pod attaches, for attach limits.
 */
import type { Pod, VolumeInfo } from './model.js';
import { Requirement } from './requirements/requirement.js';
import { Requirements } from './requirements/requirements.js';

/** What a pod's volumes demand. */
export interface PodVolumes {
  requirements: Requirements;
  /** Why the pod cannot be provisioned yet, if so. */
  error?: string;
  /** Attachable volumes by CSI driver, with a unique id each. */
  attachments: { driver: string; id: string }[];
}

function boundVolume(
  info: VolumeInfo,
  claim: { volumeName: string; provisioner: string | undefined },
  out: PodVolumes,
): void {
  const pv = info.volumes?.[claim.volumeName];
  const term = pv?.nodeAffinity?.[0];
  for (const r of term?.matchExpressions ?? []) out.requirements.add(Requirement.from(r));
  const driver = pv?.driver ?? claim.provisioner;
  if (driver) out.attachments.push({ driver, id: claim.volumeName });
}

function claimRequirements(info: VolumeInfo, claimKey: string, out: PodVolumes): void {
  const claim = info.claims?.[claimKey];
  if (!claim) {
    out.error = `persistentvolumeclaim ${claimKey} not found`;
    return;
  }
  const sc = claim.storageClassName !== undefined ? info.storageClasses?.[claim.storageClassName] : undefined;
  if (claim.volumeName) {
    boundVolume(info, { volumeName: claim.volumeName, provisioner: sc?.provisioner }, out);
    return;
  }
  if (!sc || sc.volumeBindingMode !== 'WaitForFirstConsumer') {
    out.error = `persistentvolumeclaim ${claimKey} is unbound and its StorageClass binds Immediate: waiting for the volume to be bound`;
    return;
  }
  addAllowedTopologies(sc.allowedTopologies, out.requirements);
  if (sc.provisioner) out.attachments.push({ driver: sc.provisioner, id: claimKey });
}

function addAllowedTopologies(
  topologies: { matchLabelExpressions?: { key: string; values: string[] }[] }[] | undefined,
  reqs: Requirements,
): void {
  // Terms are ORed; a single term is by far the common case and the only one expressible as plain requirements.
  const term = topologies?.length === 1 ? topologies[0] : undefined;
  for (const e of term?.matchLabelExpressions ?? []) reqs.add(Requirement.of(e.key, 'In', e.values));
}

/** The volume demands of `pod` given the cluster's claims, volumes and storage classes. */
export function podVolumes(pod: Pod, info: VolumeInfo | undefined): PodVolumes {
  const out: PodVolumes = { requirements: new Requirements(), attachments: [] };
  const ns = pod.metadata.namespace ?? 'default';
  for (const v of pod.spec.volumes ?? []) {
    if (v.persistentVolumeClaim) {
      claimRequirements(info ?? {}, `${ns}/${v.persistentVolumeClaim.claimName}`, out);
    } else if (v.ephemeral) {
      const scName = v.ephemeral.volumeClaimTemplate?.spec?.storageClassName;
      const sc = scName !== undefined ? info?.storageClasses?.[scName] : undefined;
      addAllowedTopologies(sc?.allowedTopologies, out.requirements);
      if (sc?.provisioner) out.attachments.push({ driver: sc.provisioner, id: `${ns}/${pod.metadata.name}-${v.name}` });
    }
  }
  return out;
}
