/**
 * What the solver precomputes per pending pod, and the part of it preference relaxation may change.
 */
import type { Toleration } from '../api/index.js';
import { hostPortsOf, type HostPort } from './host-ports.js';
import type { NodeSelectorTerm, Pod, PodAffinityRules, PodAffinityTerm, TopologySpreadConstraint, VolumeInfo } from './model.js';
import { podRequests } from './resources/pod-requests.js';
import type { Resources } from './resources/resources.js';
import { Requirements } from './requirements/requirements.js';
import { podVolumes, type PodVolumes } from './volumes.js';

/** `namespace/name`. */
export function podKey(pod: Pod): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
}

/** A pod affinity term with whether it is required (preferences count as required until relaxed). */
export interface AffinityTermState {
  term: PodAffinityTerm;
  required: boolean;
  weight: number;
}

/** The pod's constraints that relaxation may loosen, initially all of them (preferences as requirements). */
export interface RelaxableState {
  requiredTerms: NodeSelectorTerm[];
  /** Preferred node affinity terms, heaviest first. */
  preferredNodeTerms: NodeSelectorTerm[];
  affinity: AffinityTermState[];
  antiAffinity: AffinityTermState[];
  spread: TopologySpreadConstraint[];
  toleratePreferNoSchedule: boolean;
}

/** A pending pod, precomputed. */
export interface PodInfo {
  key: string;
  pod: Pod;
  namespace: string;
  labels: Readonly<Record<string, string>>;
  requests: Resources;
  hostPorts: HostPort[];
  volumes: PodVolumes;
  state: RelaxableState;
  /** Node requirements from the current state plus volume topology. */
  requirements: Requirements;
  tolerations: Toleration[];
  /** Position in the input, for stable ordering. */
  index: number;
}

const byWeight = <T extends { weight: number }>(a: T, b: T): number => b.weight - a.weight;

function initialState(pod: Pod): RelaxableState {
  const a = pod.spec.affinity;
  const terms = (rules: PodAffinityRules | undefined): AffinityTermState[] => [
    ...(rules?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((term) => ({ term, required: true, weight: 0 })),
    ...[...(rules?.preferredDuringSchedulingIgnoredDuringExecution ?? [])]
      .sort(byWeight)
      .map((p) => ({ term: p.podAffinityTerm, required: false, weight: p.weight })),
  ];
  return {
    requiredTerms: [...(a?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [])],
    preferredNodeTerms: [...(a?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])].sort(byWeight).map((p) => p.preference),
    affinity: terms(a?.podAffinity),
    antiAffinity: terms(a?.podAntiAffinity),
    spread: [...(pod.spec.topologySpreadConstraints ?? [])],
    toleratePreferNoSchedule: false,
  };
}

/**
 * Recomputes node requirements as Karpenter does: nodeSelector, plus the first required node-affinity term (the
 * others are tried by relaxation), plus the heaviest preferred term, plus volume topology.
 */
export function rebuildRequirements(info: PodInfo): void {
  const reqs = Requirements.fromLabels(info.pod.spec.nodeSelector);
  const first = info.state.requiredTerms[0];
  if (first) reqs.addAll(Requirements.fromSelector(first.matchExpressions));
  const preferred = info.state.preferredNodeTerms[0];
  if (preferred) reqs.addAll(Requirements.fromSelector(preferred.matchExpressions));
  reqs.addAll(info.volumes.requirements);
  info.requirements = reqs;
  info.tolerations = info.state.toleratePreferNoSchedule
    ? [...(info.pod.spec.tolerations ?? []), { operator: 'Exists', effect: 'PreferNoSchedule' }]
    : (info.pod.spec.tolerations ?? []);
}

/** Precomputes a pending pod. */
export function newPodInfo(pod: Pod, opts: { index: number; volumes?: VolumeInfo }): PodInfo {
  const info: PodInfo = {
    key: podKey(pod),
    pod,
    namespace: pod.metadata.namespace ?? 'default',
    labels: pod.metadata.labels ?? {},
    requests: podRequests(pod),
    hostPorts: hostPortsOf(pod),
    volumes: podVolumes(pod, opts.volumes),
    state: initialState(pod),
    requirements: new Requirements(),
    tolerations: [],
    index: opts.index,
  };
  rebuildRequirements(info);
  return info;
}
