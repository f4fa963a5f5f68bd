/** A node with the pods on it, precomputed for filtering and scoring (kube-scheduler's NodeInfo). */
import type { Node, Pod } from '../../kube/index.js';
import { fromResourceList, podRequests, type Resources } from '../../scheduling/index.js';
import { asSchedPod } from './sched-pod.js';

/** A node and what its pods use. */
export interface NodeInfo {
  node: Node;
  name: string;
  labels: Record<string, string>;
  allocatable: Resources;
  requested: Resources;
  pods: Pod[];
}

// A NodeInfo is rebuilt every cycle from the informer's pod objects, which stay the same objects until the pod
// changes: parsing each pod's quantities once, not once per cycle, keeps a cycle cheap.
// Keyed by the spec, which requests depend on alone: the pods of one template on one node share it.
const requests = new WeakMap<object, Resources>();

/** The pod's requests as the scheduler charges them, parsed once per spec object. */
export function requestsOf(pod: Pod): Resources {
  let r = requests.get(pod.spec);
  if (!r) requests.set(pod.spec, (r = podRequests(asSchedPod(pod))));
  return r;
}

function addInto(total: Resources, r: Resources): void {
  for (const [k, v] of Object.entries(r)) total[k] = (total[k] ?? 0) + v;
}

/** Builds the NodeInfo of `node` hosting `pods`. */
export function nodeInfo(node: Node, pods: readonly Pod[]): NodeInfo {
  const requested: Resources = {};
  for (const p of pods) addInto(requested, requestsOf(p));
  return {
    node,
    name: node.metadata.name ?? '',
    labels: node.metadata.labels ?? {},
    allocatable: fromResourceList(node.status?.allocatable),
    requested,
    pods: [...pods],
  };
}

/** The NodeInfo with more pods: a new object, as what is derived from a NodeInfo is kept per object. */
export function withPods(info: NodeInfo, pods: readonly Pod[]): NodeInfo {
  const next = { ...info, requested: { ...info.requested }, pods: [...info.pods] };
  for (const p of pods) addPod(next, p);
  return next;
}

/** Adds a pod to a NodeInfo in place (an assumed binding). */
export function addPod(info: NodeInfo, pod: Pod): void {
  info.pods.push(pod);
  addInto(info.requested, requestsOf(pod));
}

/** How many pods requesting `r` fit in what the node has left (at least 1: a feasible node takes one). */
export function copiesThatFit(r: Resources, info: NodeInfo): number {
  let n = Infinity;
  for (const [k, v] of Object.entries(r)) {
    if (v <= 0) continue;
    n = Math.min(n, Math.floor(((info.allocatable[k] ?? 0) - (info.requested[k] ?? 0)) / v));
  }
  return Number.isFinite(n) ? Math.max(1, n) : 1;
}
