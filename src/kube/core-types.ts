import type { Taint, Toleration } from '../api/index.js';
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

/** A core/v1 container, as far as Tenon reads it. */
export interface Container {
  name: string;
  image?: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  ports?: Array<{ containerPort: number; hostPort?: number; protocol?: string; hostIP?: string }>;
  restartPolicy?: string;
}

/** A core/v1 PodCondition. */
export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** A core/v1 Pod, as far as Tenon reads and writes it. */
export interface Pod extends KubeObject {
  spec: {
    nodeName?: string;
    containers: Container[];
    initContainers?: Container[];
    nodeSelector?: Record<string, string>;
    affinity?: Record<string, unknown>;
    tolerations?: Toleration[];
    topologySpreadConstraints?: Array<Record<string, unknown>>;
    volumes?: Array<Record<string, unknown> & { name: string }>;
    priority?: number;
    priorityClassName?: string;
    preemptionPolicy?: 'PreemptLowerPriority' | 'Never';
    restartPolicy?: 'Always' | 'OnFailure' | 'Never';
    schedulerName?: string;
    overhead?: Record<string, string>;
    terminationGracePeriodSeconds?: number;
  };
  status?: {
    phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
    conditions?: PodCondition[];
    nominatedNodeName?: string;
    reason?: string;
    message?: string;
    startTime?: string;
  };
}

/** True for pods in a terminal phase. */
export function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** The node's Ready condition, if reported. */
export function nodeReadyCondition(node: Node): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === 'Ready');
}
