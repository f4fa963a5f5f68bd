/**
 * Which instance types an EC2NodeClass can launch at all, as Karpenter's compatibility checks decide: the
 * interfaces it lists must fit the type's network cards and EFA devices, nested virtualization and Nitro Enclaves
 * need types that support them, a placement group needs a type that supports its strategy, and connection
 * tracking needs the Nitro hypervisor. AL2023 has no a1 (first-generation Graviton) build.
 */
import type { EC2NodeClassSpec, NetworkInterface } from '../../../api/index.js';
import type { AmiFamily } from '../bootstrap/index.js';
import type { InstanceTypeInfo, PlacementGroupInfo } from '../ports/index.js';

/** The parts of a class that narrow its instance types. */
export interface CompatibilityInput {
  spec: Partial<EC2NodeClassSpec>;
  family: AmiFamily;
  placementGroup?: PlacementGroupInfo;
}

function cardsOf(info: InstanceTypeInfo): Array<{ index: number; maxInterfaces: number }> {
  return info.networkCards && info.networkCards.length > 0
    ? info.networkCards
    : [{ index: 0, maxInterfaces: info.maxNetworkInterfaces }];
}

function interfacesFit(info: InstanceTypeInfo, interfaces: NetworkInterface[] | undefined): boolean {
  if (interfaces === undefined) return true;
  const cards = cardsOf(info);
  for (const n of interfaces) {
    const card = cards.find((c) => c.index === n.networkCardIndex);
    if (!card || card.maxInterfaces <= n.deviceIndex) return false;
  }
  const efas = interfaces.filter((n) => n.interfaceType === 'efa-only').length;
  return efas === 0 || efas <= (info.efaCount ?? 0);
}

type Check = (info: InstanceTypeInfo, c: CompatibilityInput) => boolean;

const checks: readonly Check[] = [
  (info, c) => c.family !== 'AL2023' || !info.instanceType.startsWith('a1.'),
  (info, c) => interfacesFit(info, c.spec.networkInterfaces),
  (info, c) =>
    c.spec.cpuOptions?.nestedVirtualization !== 'enabled' ||
    (info.processorFeatures?.includes('nested-virtualization') ?? false),
  (info, c) => c.spec.enclaveOptions?.enabled !== true || info.nitroEnclavesSupported === true,
  (info, c) => !c.placementGroup || (info.placementGroupStrategies?.includes(c.placementGroup.strategy) ?? false),
  (info, c) => c.spec.connectionTracking === undefined || info.hypervisor === 'nitro',
];

/** True when the class can launch this type. */
export function isCompatible(info: InstanceTypeInfo, c: CompatibilityInput): boolean {
  return checks.every((check) => check(info, c));
}
