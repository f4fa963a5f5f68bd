/** Builds small InstanceTypes for tests without a cloud. */
import type { CapacityType } from '../../api/index.js';
import type { InstanceType } from '../instance-type.js';

/** Options of `fakeInstanceType`: name, size and where it is offered at what price. */
export interface FakeInstanceTypeOptions {
  name: string;
  cpu: number;
  memoryGi: number;
  pods?: number;
  arch?: 'amd64' | 'arm64';
  offerings: Array<{ zone: string; capacityType: CapacityType; price: number; available?: boolean }>;
}

/** An InstanceType whose allocatable equals its capacity (no overhead), for scheduling-oriented tests. */
export function fakeInstanceType(o: FakeInstanceTypeOptions): InstanceType {
  const capacity = { cpu: String(o.cpu), memory: `${o.memoryGi}Gi`, pods: String(o.pods ?? 110) };
  const labels = {
    'node.kubernetes.io/instance-type': o.name,
    'kubernetes.io/arch': o.arch ?? 'amd64',
    'kubernetes.io/os': 'linux',
  };
  const zones = [...new Set(o.offerings.map((x) => x.zone))];
  const capacityTypes = [...new Set(o.offerings.map((x) => x.capacityType))];
  return {
    name: o.name,
    labels,
    requirements: [
      ...Object.entries(labels).map(([key, v]) => ({ key, operator: 'In' as const, values: [v] })),
      { key: 'topology.kubernetes.io/zone', operator: 'In', values: zones },
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: capacityTypes },
    ],
    capacity,
    overhead: { kubeReserved: {}, systemReserved: {}, evictionThreshold: {} },
    allocatable: capacity,
    offerings: o.offerings.map((x) => ({ ...x, available: x.available ?? true })),
  };
}
