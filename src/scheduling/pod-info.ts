/**
 * What the solver precomputes per pending pod, and the part of it preference relaxation may change.
 */
import type { Toleration } from '../api/index.js';
import { hostPortsOf, type HostPort } from './host-ports.js';
import type {
  NodeSelectorTerm,
  Pod,
  PodAffinityRules,
  PodAffinityTerm,
  PreferencePolicy,
  TopologySpreadConstraint,
  VolumeInfo,
} from './model.js';
import { podRequests } from './resources/pod-requests.js';
import type { SolveCache } from './solve-cache.js';
import { attachResource, type Resources } from './resources/resources.js';
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
  readonly requiredTerms: readonly NodeSelectorTerm[];
  /** Preferred node affinity terms, heaviest first. */
  readonly preferredNodeTerms: readonly NodeSelectorTerm[];
  readonly affinity: readonly AffinityTermState[];
  readonly antiAffinity: readonly AffinityTermState[];
  readonly spread: readonly TopologySpreadConstraint[];
  readonly toleratePreferNoSchedule: boolean;
}

/**
 * What a pending pod's placement depends on besides its name: its namespace, labels, requests, host ports, volumes,
 * relaxable constraints and the node requirements and tolerations they make. Derived from the spec, labels and
 * namespace alone when the pod has no claimed volumes, so the pods of one template share one (a scale-up batch of
 * 100,000 pods holds a few); never changed, as relaxation moves a pod to other traits instead. Caches of per-pod
 * answers are keyed by traits.
 */
export interface PodTraits {
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly requests: Readonly<Resources>;
  readonly hostPorts: readonly HostPort[];
  readonly volumes: Readonly<PodVolumes>;
  readonly state: RelaxableState;
  /** Node requirements from the current state plus volume topology. */
  readonly requirements: Requirements;
  readonly tolerations: readonly Toleration[];
  /** The spec the traits were derived from (relaxation rebuilds requirements and tolerations from it). */
  readonly spec: Pod['spec'];
}

/** A pending pod, precomputed: its identity and its (shared) traits. */
export class PodInfo {
  constructor(
    readonly key: string,
    readonly pod: Pod,
    /** Position in the input, for stable ordering. */
    readonly index: number,
    /** Replaced when a preference is relaxed. */
    public traits: PodTraits,
  ) {}

  /** The pod's namespace. */
  get namespace(): string {
    return this.traits.namespace;
  }
  /** The pod's labels. */
  get labels(): Readonly<Record<string, string>> {
    return this.traits.labels;
  }
  /** What the pod requests (shared: never change it). */
  get requests(): Readonly<Resources> {
    return this.traits.requests;
  }
  /** Host ports the pod binds. */
  get hostPorts(): readonly HostPort[] {
    return this.traits.hostPorts;
  }
  /** What the pod's volumes demand. */
  get volumes(): Readonly<PodVolumes> {
    return this.traits.volumes;
  }
  /** The constraints relaxation may loosen, as they stand. */
  get state(): RelaxableState {
    return this.traits.state;
  }
  /** Node requirements from the current state plus volume topology. */
  get requirements(): Requirements {
    return this.traits.requirements;
  }
  /** Tolerations, with PreferNoSchedule tolerated once relaxation went that far. */
  get tolerations(): readonly Toleration[] {
    return this.traits.tolerations;
  }
}

const byWeight = <T extends { weight: number }>(a: T, b: T): number => b.weight - a.weight;

/** Under Ignore, preferences never enter the state (as Karpenter leaves them out of requirements and topology). */
function initialState(pod: Pod, policy: PreferencePolicy): RelaxableState {
  const a = pod.spec.affinity;
  const respect = policy === 'Respect';
  const terms = (rules: PodAffinityRules | undefined): AffinityTermState[] => [
    ...(rules?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((term) => ({
      term,
      required: true,
      weight: 0,
    })),
    ...[...(respect ? (rules?.preferredDuringSchedulingIgnoredDuringExecution ?? []) : [])]
      .sort(byWeight)
      .map((p) => ({ term: p.podAffinityTerm, required: false, weight: p.weight })),
  ];
  const preferredNode = respect ? (a?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) : [];
  const spread = pod.spec.topologySpreadConstraints ?? [];
  return {
    requiredTerms: [...(a?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [])],
    preferredNodeTerms: [...preferredNode].sort(byWeight).map((p) => p.preference),
    affinity: terms(a?.podAffinity),
    antiAffinity: terms(a?.podAntiAffinity),
    spread: respect ? [...spread] : spread.filter((c) => c.whenUnsatisfiable === 'DoNotSchedule'),
    toleratePreferNoSchedule: false,
  };
}

/**
 * Traits for `state`: node requirements as Karpenter computes them (nodeSelector, plus the first required
 * node-affinity term, the others being tried by relaxation, plus the heaviest preferred term, plus volume
 * topology) and tolerations.
 */
export function traitsWithState(
  base: Omit<PodTraits, 'requirements' | 'tolerations' | 'state'>,
  state: RelaxableState,
): PodTraits {
  const reqs = Requirements.fromLabels(base.spec.nodeSelector);
  const first = state.requiredTerms[0];
  if (first) reqs.addAll(Requirements.fromSelector(first.matchExpressions));
  const preferred = state.preferredNodeTerms[0];
  if (preferred) reqs.addAll(Requirements.fromSelector(preferred.matchExpressions));
  reqs.addAll(base.volumes.requirements);
  const tolerations: readonly Toleration[] = state.toleratePreferNoSchedule
    ? [...(base.spec.tolerations ?? []), { operator: 'Exists', effect: 'PreferNoSchedule' }]
    : (base.spec.tolerations ?? []);
  return {
    namespace: base.namespace,
    labels: base.labels,
    requests: base.requests,
    hostPorts: base.hostPorts,
    volumes: base.volumes,
    spec: base.spec,
    state,
    requirements: reqs,
    tolerations,
  };
}

const noLabels: Readonly<Record<string, string>> = Object.freeze({});
const noVolumes: Readonly<PodVolumes> = Object.freeze({ requirements: new Requirements(), attachments: [] });

function claimsVolumes(pod: Pod): boolean {
  return (pod.spec.volumes ?? []).some((v) => v.persistentVolumeClaim !== undefined || v.ephemeral !== undefined);
}

function newTraits(
  pod: Pod,
  of: { namespace: string; labels: Readonly<Record<string, string>>; volumes: Readonly<PodVolumes> },
  opts: { policy: PreferencePolicy; cache?: SolveCache },
): PodTraits {
  const { namespace, labels, volumes } = of;
  const requests = withAttachments(podRequests(pod, opts.cache), volumes);
  return traitsWithState(
    { namespace, labels, requests, hostPorts: hostPortsOf(pod), volumes, spec: pod.spec },
    initialState(pod, opts.policy),
  );
}

/** `requests` (a fresh copy) plus one attach resource per distinct CSI volume of the pod (see attachResource). */
function withAttachments(requests: Resources, volumes: Readonly<PodVolumes>): Resources {
  const seen = new Set<string>();
  for (const a of volumes.attachments) {
    const key = attachResource(a.driver);
    if (seen.has(`${key}/${a.id}`)) continue;
    seen.add(`${key}/${a.id}`);
    requests[key] = (requests[key] ?? 0) + 1;
  }
  return requests;
}

/**
 * The traits of a pending pod. With a cache, shared with every pod of the same spec, labels and namespace (and
 * preference policy) unless it claims volumes (weakly on the spec and labels objects, which pods of one template may
 * share).
 */
export function podTraits(
  pod: Pod,
  volumes: VolumeInfo | undefined,
  cache?: SolveCache,
  policy: PreferencePolicy = 'Respect',
): PodTraits {
  const namespace = pod.metadata.namespace ?? 'default';
  const labels = pod.metadata.labels ?? noLabels;
  if (claimsVolumes(pod))
    return newTraits(pod, { namespace, labels, volumes: podVolumes(pod, volumes) }, { policy, cache });
  if (!cache) return newTraits(pod, { namespace, labels, volumes: noVolumes }, { policy });
  let byLabels = cache.traits.get(pod.spec);
  if (!byLabels) cache.traits.set(pod.spec, (byLabels = new WeakMap()));
  let byNamespace = byLabels.get(labels);
  if (!byNamespace) byLabels.set(labels, (byNamespace = new Map()));
  const key = policy === 'Respect' ? namespace : `${namespace}\0${policy}`;
  let traits = byNamespace.get(key);
  if (!traits)
    byNamespace.set(key, (traits = newTraits(pod, { namespace, labels, volumes: noVolumes }, { policy, cache })));
  return traits;
}

/** Precomputes a pending pod. */
export function newPodInfo(
  pod: Pod,
  opts: { index: number; volumes?: VolumeInfo; cache?: SolveCache; preferencePolicy?: PreferencePolicy },
): PodInfo {
  return new PodInfo(podKey(pod), pod, opts.index, podTraits(pod, opts.volumes, opts.cache, opts.preferencePolicy));
}
