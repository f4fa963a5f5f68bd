/** The facts of a pending pod that explanations read: requirements (with its volumes' zones), tolerations, requests. */
import { Labels } from '../api/index.js';
import { podRequests, podVolumes, Requirements, type Pod, type VolumeInfo } from '../scheduling/index.js';
import type { PodFacts } from './pod-findings.js';

function volumeZones(pod: Pod, info: VolumeInfo): PodFacts['volumeZones'] {
  const out: PodFacts['volumeZones'] = [];
  const ns = pod.metadata.namespace ?? 'default';
  for (const v of pod.spec.volumes ?? []) {
    const claim = v.persistentVolumeClaim ? info.claims?.[`${ns}/${v.persistentVolumeClaim.claimName}`] : undefined;
    const pv = claim?.volumeName ? info.volumes?.[claim.volumeName] : undefined;
    const zones = pv?.nodeAffinity
      ?.flatMap((t) => t.matchExpressions ?? [])
      .filter((e) => Requirements.fromSelector([e]).has(Labels.zone) && e.operator === 'In')
      .flatMap((e) => e.values ?? []);
    if (claim?.volumeName && zones?.length) out.push({ volume: claim.volumeName, zones });
  }
  return out;
}

/** The pod's facts: nodeSelector, first required node affinity term and volume zones as requirements. */
export function podFacts(pod: Pod, info: VolumeInfo): PodFacts {
  const requirements = Requirements.fromLabels(pod.spec.nodeSelector);
  const first = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0];
  if (first) requirements.addAll(Requirements.fromSelector(first.matchExpressions));
  requirements.addAll(podVolumes(pod, info).requirements);
  return {
    key: `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''}`,
    tolerations: pod.spec.tolerations ?? [],
    requirements,
    volumeZones: volumeZones(pod, info),
    requests: podRequests(pod),
  };
}
