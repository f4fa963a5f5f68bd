/** One instance of a CreateFleet placement: from its launch template, with a fresh address and the fleet's tags. */
import { AwsApiError, type FleetRequest } from '../../providers/aws/ports/index.js';
import type { SimAccount } from './account.js';
import { freeAddress } from './addresses.js';
import type { FleetPlacement } from './fleet.js';
import type { SimInstance } from './instances.js';

/** Launches the placement's instance (pending) in the account and returns it. */
export function launchInstance(input: {
  account: SimAccount;
  /** Private addresses given out so far (never reused). */
  usedAddresses: Set<string>;
  placement: FleetPlacement;
  request: FleetRequest;
}): SimInstance {
  const { account, placement, request } = input;
  const o = placement.override;
  const t = account.launchTemplates.get(o.launchTemplateName);
  if (!t) throw new AwsApiError('InvalidLaunchTemplateName.NotFoundException', o.launchTemplateName);
  const octets = freeAddress(account.random, input.usedAddresses);
  const privateIp = octets.join('.');
  const subnet = account.network.subnets.find((s) => s.subnetId === o.subnetId);
  if (subnet) subnet.availableIpAddressCount = Math.max(0, subnet.availableIpAddressCount - 1);
  const instance: SimInstance = {
    instanceId: `i-${account.random.hex(17)}`,
    instanceType: o.instanceType,
    zone: o.zone,
    subnetId: o.subnetId,
    imageId: t.imageId,
    state: 'pending',
    capacityType: request.capacityType,
    launchTime: new Date(account.clock.now()),
    securityGroupIds: [...t.securityGroupIds],
    privateDnsName: `ip-${octets.join('-')}.ec2.internal`,
    privateIp,
    tags: { ...t.tags, ...request.tags },
    userData: t.userData,
    launchTemplateName: t.name,
    instanceProfileName: t.instanceProfileName,
    metadataOptions: { ...t.metadataOptions },
    blockDeviceMappings: structuredClone(t.blockDeviceMappings),
    ...(placement.reservationId === undefined ? {} : { capacityReservationId: placement.reservationId }),
  };
  account.instances.launch(instance);
  return instance;
}
