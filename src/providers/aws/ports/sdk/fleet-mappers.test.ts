import { describe, expect, it } from 'vitest';
import type { LaunchTemplateInput } from '../types.js';
import { buildLaunchTemplateData } from './fleet-mappers.js';

const base: LaunchTemplateInput = {
  name: 'karpenter.k8s.aws/1',
  imageId: 'ami-1',
  userData: 'x',
  securityGroupIds: ['sg-1'],
  instanceProfileName: 'profile',
  blockDeviceMappings: [],
  metadataOptions: {
    httpEndpoint: 'enabled',
    httpTokens: 'required',
    httpPutResponseHopLimit: 1,
    httpProtocolIpv6: 'disabled',
  },
  tags: {},
};

describe('CreateLaunchTemplate data', () => {
  it('puts security groups on the instance when no interfaces are listed', () => {
    const data = buildLaunchTemplateData(base);
    expect(data.SecurityGroupIds).toEqual(['sg-1']);
    expect(data.NetworkInterfaces).toBeUndefined();
  });

  it('moves security groups onto the interfaces, as EC2 requires once interfaces are given', () => {
    const data = buildLaunchTemplateData({
      ...base,
      networkInterfaces: [
        {
          networkCardIndex: 0,
          deviceIndex: 0,
          interfaceType: 'interface',
          groups: ['sg-1'],
          ipv4PrefixCount: 2,
          connectionTracking: { udpTimeout: 30 },
        },
        { networkCardIndex: 0, deviceIndex: 1, interfaceType: 'efa-only', groups: ['sg-1'] },
      ],
      cpuOptions: { nestedVirtualization: 'enabled' },
      enclaveOptions: { enabled: true },
      placement: { groupId: 'pg-1', partitionNumber: 2 },
    });
    expect(data.SecurityGroupIds).toBeUndefined();
    expect(data.NetworkInterfaces).toEqual([
      {
        NetworkCardIndex: 0,
        DeviceIndex: 0,
        Groups: ['sg-1'],
        Ipv4PrefixCount: 2,
        ConnectionTrackingSpecification: {
          TcpEstablishedTimeout: undefined,
          UdpStreamTimeout: undefined,
          UdpTimeout: 30,
        },
      },
      { NetworkCardIndex: 0, DeviceIndex: 1, InterfaceType: 'efa-only', Groups: ['sg-1'] },
    ]);
    expect(data.CpuOptions).toEqual({ NestedVirtualization: 'enabled' });
    expect(data.EnclaveOptions).toEqual({ Enabled: true });
    expect(data.Placement).toEqual({ GroupId: 'pg-1', PartitionNumber: 2 });
  });

  it('targets a capacity reservation with its market type', () => {
    const data = buildLaunchTemplateData({
      ...base,
      capacityReservation: {
        preference: 'capacity-reservations-only',
        reservationId: 'cr-1',
        marketType: 'interruptible-capacity-reservation',
      },
    });
    expect(data.CapacityReservationSpecification).toEqual({
      CapacityReservationPreference: 'capacity-reservations-only',
      CapacityReservationTarget: { CapacityReservationId: 'cr-1' },
    });
    expect(data.InstanceMarketOptions).toEqual({ MarketType: 'interruptible-capacity-reservation' });
  });
});
