/** A node with the pods on it, precomputed for filtering and scoring (kube-scheduler's NodeInfo). */
import type { Node, Pod } from '../../kube/index.js';
import { addResources, fromResourceList, hostPortsOf, podRequests, type HostPort, type Resources } from '../../scheduling/index.js';
import { asSchedPod } from './sched-pod.js';

/** A node and what its pods use. */
export interface NodeInfo {
  node: Node;
  name: string;
  labels: Record<string, string>;
  allocatable: Resources;
  requested: Resources;
  pods: Pod[];
  ports: HostPort[];
}

/** What a pod object asks of its node; informer objects are replaced on update, so the object is the key. */
const usage = new WeakMap<Pod, { requests: Resources; ports: HostPort[] }>();

function usageOf(pod: Pod): { requests: Resources; ports: HostPort[] } {
  let u = usage.get(pod);
  if (!u) {
    const sp = asSchedPod(pod);
    u = { requests: podRequests(sp), ports: hostPortsOf(sp) };
    usage.set(pod, u);
  }
  return u;
}

/** Builds the NodeInfo of `node` hosting `pods`. */
export function nodeInfo(node: Node, pods: readonly Pod[]): NodeInfo {
  let requested: Resources = {};
  const ports: HostPort[] = [];
  for (const p of pods) {
    const u = usageOf(p);
    requested = addResources(requested, u.requests);
    ports.push(...u.ports);
  }
  return {
    node,
    name: node.metadata.name ?? '',
    labels: node.metadata.labels ?? {},
    allocatable: fromResourceList(node.status?.allocatable),
    requested,
    pods: [...pods],
    ports,
  };
}

/** Adds a pod to a NodeInfo in place (an assumed binding). */
export function addPod(info: NodeInfo, pod: Pod): void {
  const u = usageOf(pod);
  info.pods.push(pod);
  info.requested = addResources(info.requested, u.requests);
  info.ports.push(...u.ports);
}
