/**
 * The Node a kubelet registers, from its machine and its real view of the userData (the bootstrap library's
 * effectiveKubeletConfig): hostname, os and arch labels, the provider labels, the `--node-labels`, exactly the
 * `--register-with-taints` it ended up with (SCENARIOS.md S2, S3), the cloud provider's uninitialized taint
 * when it runs with `--cloud-provider=external`, and capacity and allocatable after its reservations.
 */
import { EphemeralTaintKeys, Labels, type Taint } from '../../api/index.js';
import type { Node } from '../../kube/index.js';
import type { EffectiveKubeletConfig } from '../../providers/aws/bootstrap/index.js';
import {
  formatResource,
  fromResourceList,
  resourceValue,
  subtractResources,
  type Resources,
} from '../../scheduling/index.js';
import { defaultKubernetesVersion, kubeletVersion } from '../machines/kubernetes-version.js';
import type { Machine } from '../machines/machine.js';

/** The taint a kubelet started with `--cloud-provider=external` registers with until the CCM initializes it. */
export const CloudProviderUninitializedTaint: Taint = {
  key: EphemeralTaintKeys.cloudProviderUninitialized,
  value: 'true',
  effect: 'NoSchedule',
};

/** The kubelet's default max pods when nothing sets it. */
const defaultMaxPods = 110;

/** Labels the kubelet itself sets, then the `--node-labels` (which may not override the kubelet's own). */
export function registrationLabels(m: Machine, config: EffectiveKubeletConfig): Record<string, string> {
  return {
    ...config.labels,
    [Labels.hostname]: m.nodeName,
    [Labels.os]: m.os,
    [Labels.arch]: m.arch,
    [Labels.instanceType]: m.instanceType,
    [Labels.zone]: m.zone,
    [Labels.region]: m.region,
  };
}

/** The taints the Node registers with: the kubelet's register-with-taints, plus the CCM's when external. */
export function registrationTaints(config: EffectiveKubeletConfig): Taint[] {
  const taints = config.taints.map((t) => ({ ...t }));
  if (config.cloudProvider === 'external' && !taints.some((t) => t.key === CloudProviderUninitializedTaint.key)) {
    taints.push({ ...CloudProviderUninitializedTaint });
  }
  return taints;
}

function reserved(config: EffectiveKubeletConfig): Resources {
  const out: Resources = {};
  for (const list of [config.kubeReserved, config.systemReserved]) {
    for (const [name, q] of Object.entries(list)) out[name] = (out[name] ?? 0) + resourceValue(name, q);
  }
  // A hard eviction threshold given as a quantity is held back from allocatable too (percentages are not).
  const memory = config.evictionHard['memory.available'];
  if (memory && !memory.endsWith('%')) out.memory = (out.memory ?? 0) + resourceValue('memory', memory);
  return out;
}

function format(r: Resources): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(r)) out[name] = formatResource(name, Math.max(0, v));
  return out;
}

/** Capacity and allocatable the kubelet reports. */
export function nodeResources(
  m: Machine,
  config: EffectiveKubeletConfig,
): { capacity: Record<string, string>; allocatable: Record<string, string> } {
  const pods =
    config.maxPods ?? m.eniMaxPods ?? (m.capacity.pods ? resourceValue('pods', m.capacity.pods) : defaultMaxPods);
  const capacity: Resources = { ...fromResourceList(m.capacity), pods };
  const allocatable = m.allocatable
    ? { ...fromResourceList(m.allocatable), pods }
    : subtractResources(capacity, reserved(config));
  return { capacity: format(capacity), allocatable: format(allocatable) };
}

/** The Node object a kubelet creates at registration (Ready=False until its runtime and network are up). */
export function registrationNode(m: Machine, config: EffectiveKubeletConfig, now: string): Node {
  const { capacity, allocatable } = nodeResources(m, config);
  return {
    metadata: {
      name: m.nodeName,
      labels: registrationLabels(m, config),
      annotations: { 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: { providerID: m.providerID, taints: registrationTaints(config) },
    status: {
      capacity,
      allocatable,
      conditions: [
        {
          type: 'MemoryPressure',
          status: 'False',
          reason: 'KubeletHasSufficientMemory',
          message: 'kubelet has sufficient memory available',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
        {
          type: 'DiskPressure',
          status: 'False',
          reason: 'KubeletHasNoDiskPressure',
          message: 'kubelet has no disk pressure',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
        {
          type: 'PIDPressure',
          status: 'False',
          reason: 'KubeletHasSufficientPID',
          message: 'kubelet has sufficient PID available',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
        {
          type: 'Ready',
          status: 'False',
          reason: 'KubeletNotReady',
          message:
            'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
      addresses: [
        ...(m.privateIp ? [{ type: 'InternalIP', address: m.privateIp }] : []),
        { type: 'Hostname', address: m.nodeName },
      ],
      nodeInfo: {
        architecture: m.arch,
        operatingSystem: m.os,
        kubeletVersion: m.kubeletVersion ?? kubeletVersion(defaultKubernetesVersion) ?? '',
        containerRuntimeVersion: 'containerd://1.7.0-sim',
        machineID: m.instanceId,
      },
    },
  };
}
