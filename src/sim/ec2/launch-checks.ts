/**
 * Why EC2 would refuse one CreateFleet override: an unknown type, a zone that does not offer it, a capacity type it
 * is not sold as, a subnet outside the zone, or a launch template asking for what the type lacks (Nitro Enclaves,
 * nested virtualization, interfaces beyond its network cards or EFA devices, a placement strategy it cannot join).
 */
import type { FleetOverride, FleetRequest, InstanceTypeInfo } from '../../providers/aws/ports/index.js';
import type { SimAccount, SimLaunchTemplate } from './account.js';

function featureRefusal(info: InstanceTypeInfo, t: SimLaunchTemplate): string | undefined {
  const type = info.instanceType;
  if (t.enclaveOptions?.enabled === true && info.nitroEnclavesSupported !== true)
    return `Nitro Enclaves is not supported for instance type ${type}`;
  if (t.cpuOptions?.nestedVirtualization === 'enabled' && !info.processorFeatures?.includes('nested-virtualization'))
    return `Nested virtualization is not supported for instance type ${type}`;
  return undefined;
}

function interfaceRefusal(info: InstanceTypeInfo, t: SimLaunchTemplate): string | undefined {
  const type = info.instanceType;
  const cards = info.networkCards ?? [{ index: 0, maxInterfaces: info.maxNetworkInterfaces }];
  const interfaces = t.networkInterfaces ?? [];
  for (const n of interfaces) {
    const card = cards.find((c) => c.index === n.networkCardIndex);
    if (!card || card.maxInterfaces <= n.deviceIndex)
      return `Network card ${n.networkCardIndex} device ${n.deviceIndex} does not exist on instance type ${type}`;
  }
  const efas = interfaces.filter((n) => n.interfaceType !== 'interface').length;
  return efas > (info.efaCount ?? 0)
    ? `Instance type ${type} supports ${info.efaCount ?? 0} EFA interfaces`
    : undefined;
}

function placementRefusal(info: InstanceTypeInfo, t: SimLaunchTemplate, account: SimAccount): string | undefined {
  if (!t.placement) return undefined;
  const group = account.placementGroups.get(t.placement.groupId);
  if (!group) return `The placement group '${t.placement.groupId}' is unknown`;
  if (!info.placementGroupStrategies?.includes(group.strategy))
    return `Instance type ${info.instanceType} is not supported in a ${group.strategy} placement group`;
  return undefined;
}

/** The refusal message for the override, or undefined when EC2 would try to launch it. */
export function unsupportedOverride(account: SimAccount, o: FleetOverride, request: FleetRequest): string | undefined {
  const zoneIndex = account.zones.indexOf(o.zone);
  const info = account.instanceTypeInfos().find((t) => t.instanceType === o.instanceType);
  if (!info) return `The instance type '${o.instanceType}' does not exist`;
  if (zoneIndex < 0 || !account.market.offered(o.instanceType, o.zone, zoneIndex)) {
    return `Your requested instance type (${o.instanceType}) is not supported in your requested Availability Zone (${o.zone}).`;
  }
  if (!info.supportedUsageClasses.includes(request.capacityType))
    return `${o.instanceType} is not offered as ${request.capacityType}`;
  const subnet = account.network.subnets.find((s) => s.subnetId === o.subnetId);
  if (!subnet || subnet.zone !== o.zone) return `The subnet ID '${o.subnetId}' does not exist in ${o.zone}`;
  if (request.capacityType === 'on-demand' && account.market.onDemandPrice(o.instanceType) === undefined) {
    return `${o.instanceType} is not available for purchase in this account`;
  }
  const t = account.launchTemplates.get(o.launchTemplateName);
  if (!t) return undefined;
  return featureRefusal(info, t) ?? interfaceRefusal(info, t) ?? placementRefusal(info, t, account);
}
