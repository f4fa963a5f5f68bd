/**
 * Which label keys the engine treats specially, following Karpenter: well-known labels may be required by pods
 * even when a NodePool does not mention them (instance types and offerings define them); restricted labels may not
 * be set by NodePools; deprecated beta labels are normalized to their GA names.
 */
import { Labels } from '../../api/index.js';

/** Labels a NodeClaim gets from its instance type, offering or NodePool (Karpenter's WellKnownLabels + AWS's). */
export const WellKnownLabels: ReadonlySet<string> = new Set<string>([
  Labels.nodePool,
  Labels.zone,
  Labels.region,
  Labels.instanceType,
  Labels.arch,
  Labels.os,
  Labels.windowsBuild,
  Labels.capacityType,
  Labels.zoneId,
  Labels.instanceCategory,
  Labels.instanceFamily,
  Labels.instanceGeneration,
  Labels.instanceSize,
  Labels.instanceCpu,
  Labels.instanceCpuManufacturer,
  Labels.instanceCpuSustainedClockSpeedMhz,
  Labels.instanceMemory,
  Labels.instanceEbsBandwidth,
  Labels.instanceNetworkBandwidth,
  Labels.instanceGpuName,
  Labels.instanceGpuManufacturer,
  Labels.instanceGpuCount,
  Labels.instanceGpuMemory,
  Labels.instanceAcceleratorName,
  Labels.instanceAcceleratorManufacturer,
  Labels.instanceAcceleratorCount,
  Labels.instanceHypervisor,
  Labels.instanceEncryptionInTransitSupported,
  Labels.instanceLocalNvme,
  Labels.instanceCapabilityFlex,
  Labels.capacityReservationId,
  Labels.capacityReservationType,
  Labels.capacityReservationInterruptible,
  Labels.placementGroupId,
  Labels.placementGroupPartition,
]);

/** Deprecated label keys and the key they stand for. */
export const NormalizedLabels: Readonly<Record<string, string>> = {
  'failure-domain.beta.kubernetes.io/zone': Labels.zone,
  'failure-domain.beta.kubernetes.io/region': Labels.region,
  'beta.kubernetes.io/arch': Labels.arch,
  'beta.kubernetes.io/os': Labels.os,
  'beta.kubernetes.io/instance-type': Labels.instanceType,
};

/** Returns the GA name of a possibly deprecated label key. */
export function normalizeLabelKey(key: string): string {
  return NormalizedLabels[key] ?? key;
}

const restrictedDomains = ['kubernetes.io', 'k8s.io', 'karpenter.sh'];
const domainExceptions = ['kops.k8s.io', 'node.kubernetes.io', 'node-restriction.kubernetes.io'];
const restrictedKeys: ReadonlySet<string> = new Set<string>([
  Labels.hostname,
  Labels.nodePool,
  'karpenter.sh/nodeclaim',
  Labels.registered,
  Labels.initialized,
]);

/** True when a NodePool may not set or require this label (Karpenter's restricted labels). */
export function isRestrictedLabel(key: string): boolean {
  if (restrictedKeys.has(key)) return true;
  if (WellKnownLabels.has(key)) return false;
  const domain = key.includes('/') ? (key.split('/')[0] ?? '') : '';
  if (domainExceptions.some((d) => domain === d || domain.endsWith(`.${d}`))) return false;
  return restrictedDomains.some((d) => domain === d || domain.endsWith(`.${d}`));
}
