/** The scheduling requirements of an instance type: its labels, the DoesNotExist of labels it lacks, and its offerings. */
import { Labels, type NodeSelectorRequirementWithMinValues } from '../../../api/index.js';
import type { Offering } from '../../../cloudprovider/index.js';
import type { PlacementGroupInfo } from '../ports/index.js';

// AWS labels some types have and others lack: a type without one must not match a pod that needs it.
const optionalLabels = [
  Labels.instanceGpuName,
  Labels.instanceGpuManufacturer,
  Labels.instanceGpuCount,
  Labels.instanceGpuMemory,
  Labels.instanceAcceleratorName,
  Labels.instanceAcceleratorManufacturer,
  Labels.instanceAcceleratorCount,
  Labels.instanceLocalNvme,
  Labels.instanceHypervisor,
  Labels.instanceEbsBandwidth,
  Labels.instanceNetworkBandwidth,
  Labels.instanceCpuManufacturer,
  Labels.instanceCpuSustainedClockSpeedMhz,
  // Only Windows families set it (Karpenter starts every type at DoesNotExist and inserts the family's build).
  Labels.windowsBuild,
];

const unique = (xs: string[]): string[] => [...new Set(xs)].sort();

/** Requirements of a type with these labels and offerings (only available offerings count). */
export function instanceTypeRequirements(input: {
  labels: Record<string, string>;
  offerings: Offering[];
  region: string;
  zoneIds: ReadonlyMap<string, string>;
}): NodeSelectorRequirementWithMinValues[] {
  const available = input.offerings.filter((o) => o.available);
  const zones = unique(available.map((o) => o.zone));
  const out: NodeSelectorRequirementWithMinValues[] = Object.entries(input.labels).map(([key, v]) => ({
    key,
    operator: 'In',
    values: [v],
  }));
  for (const key of optionalLabels) if (!(key in input.labels)) out.push({ key, operator: 'DoesNotExist' });
  out.push({ key: Labels.zone, operator: 'In', values: zones });
  out.push({ key: Labels.capacityType, operator: 'In', values: unique(available.map((o) => o.capacityType)) });
  out.push({ key: Labels.region, operator: 'In', values: [input.region] });
  const ids = unique(zones.flatMap((z) => input.zoneIds.get(z) ?? []));
  if (ids.length > 0) out.push({ key: Labels.zoneId, operator: 'In', values: ids });
  return out;
}

/**
 * Requirements a placement group adds (as Karpenter's offerings carry them): its id, and for a partition group the
 * partitions a NodeClaim may ask for, so pods can spread over `karpenter.k8s.aws/placement-group-partition`.
 */
export function placementGroupRequirements(
  group: PlacementGroupInfo | undefined,
): NodeSelectorRequirementWithMinValues[] {
  if (!group) return [];
  const out: NodeSelectorRequirementWithMinValues[] = [
    { key: Labels.placementGroupId, operator: 'In', values: [group.groupId] },
  ];
  if (group.strategy === 'partition' && (group.partitionCount ?? 0) > 0) {
    const partitions = Array.from({ length: group.partitionCount ?? 0 }, (_, i) => String(i + 1));
    out.push({ key: Labels.placementGroupPartition, operator: 'In', values: partitions });
  }
  return out;
}
