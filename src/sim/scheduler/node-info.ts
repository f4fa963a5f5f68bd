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

/** Builds the NodeInfo of `node` hosting `pods`. */
export function nodeInfo(node: Node, pods: readonly Pod[]): NodeInfo {
  let requested: Resources = {};
  const ports: HostPort[] = [];
  for (const p of pods) {
    requested = addResources(requested, podRequests(asSchedPod(p)));
    ports.push(...hostPortsOf(asSchedPod(p)));
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
  info.pods.push(pod);
  info.requested = addResources(info.requested, podRequests(asSchedPod(pod)));
  info.ports.push(...hostPortsOf(asSchedPod(pod)));
}
