import type { Pod, Taint } from '../api/index.js';
import type { KubeObject } from './resources.js';

/** A core/v1 NodeCondition. */
export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

/** A core/v1 Node, as far as Tenon reads and writes it (timestamps stay RFC 3339 strings). */
export interface Node extends KubeObject {
  spec?: { providerID?: string; taints?: Taint[]; unschedulable?: boolean; podCIDR?: string };
  status?: {
    conditions?: NodeCondition[];
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
    nodeInfo?: Record<string, string>;
    addresses?: Array<{ type: string; address: string }>;
  };
}

/** The Pod and its parts are the API layer's one core/v1 Pod type. */
export type { Container, Pod, PodCondition, PodSpec, PodStatus } from '../api/index.js';

/** True for pods in a terminal phase. */
export function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** The node's Ready condition, if reported. */
export function nodeReadyCondition(node: Node): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === 'Ready');
}
