/**
 * Instance types for the fake cloud (`tenon controller --cloud-provider fake`): the shipped catalog of real
 * EC2 types (data/aws-instance-types.json) with their published allocatable and on-demand prices, offered in
 * a few made-up zones, so the controllers choose among realistic shapes without any cloud.
 */
import type { ResourceList } from '../../api/index.js';
import type { InstanceType } from '../../cloudprovider/index.js';
import { fromResourceList, subtractResources, toResourceList } from '../../scheduling/index.js';
import { loadCatalog, type CatalogEntry } from '../ec2/catalog.js';

/** Where and how the fake cloud offers its types. */
export interface CatalogInstanceTypesOptions {
  /** Zones every type is offered in (default us-east-1a, -b, -c: the catalog's region). */
  zones?: readonly string[];
  /** Spot price as a fraction of the on-demand price (default 0.35). */
  spotDiscount?: number;
  /** The catalog (default: the shipped one). */
  catalog?: readonly CatalogEntry[];
}

/** The default zones of the fake cloud. */
export const fakeCloudZones = ['us-east-1a', 'us-east-1b', 'us-east-1c'] as const;

function capacityOf(e: CatalogEntry): ResourceList {
  return {
    cpu: String(e.vcpu),
    memory: `${e.memoryMiB}Mi`,
    pods: e.allocatable.pods ?? '110',
    'ephemeral-storage': '20Gi',
  };
}

function toInstanceType(
  e: CatalogEntry,
  o: Required<Omit<CatalogInstanceTypesOptions, 'catalog'>>,
  price: number,
): InstanceType {
  const capacity = capacityOf(e);
  const allocatable = { ...e.allocatable };
  // Whatever the node keeps back is reported as kube-reserved: the catalog publishes only the total.
  const pick = (r: ResourceList): ResourceList =>
    Object.fromEntries(Object.entries(r).filter(([k]) => k === 'cpu' || k === 'memory'));
  const kubeReserved = toResourceList(
    subtractResources(fromResourceList(pick(capacity)), fromResourceList(pick(allocatable))),
  );
  const offerings = o.zones.flatMap((zone) => [
    { zone, capacityType: 'on-demand' as const, price, available: true },
    { zone, capacityType: 'spot' as const, price: Math.round(price * o.spotDiscount * 1e5) / 1e5, available: true },
  ]);
  return {
    name: e.name,
    labels: e.labels,
    requirements: [
      ...Object.entries(e.labels).map(([key, v]) => ({ key, operator: 'In' as const, values: [v] })),
      { key: 'topology.kubernetes.io/zone', operator: 'In', values: [...o.zones] },
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand', 'spot'] },
    ],
    capacity: { ...capacity, ...Object.fromEntries(Object.entries(allocatable).filter(([k]) => !(k in capacity))) },
    overhead: { kubeReserved, systemReserved: {}, evictionThreshold: {} },
    allocatable,
    offerings,
  };
}

/** Every Linux type of the catalog that has a price, as an InstanceType offered on-demand and spot in each zone. */
export function catalogInstanceTypes(o: CatalogInstanceTypesOptions = {}): InstanceType[] {
  const opts = { zones: o.zones ?? fakeCloudZones, spotDiscount: o.spotDiscount ?? 0.35 };
  const out: InstanceType[] = [];
  for (const e of o.catalog ?? loadCatalog()) {
    if (e.os !== 'linux' || e.onDemandPriceUSD === null) continue;
    out.push(toInstanceType(e, opts, e.onDemandPriceUSD));
  }
  return out;
}
