import {
  CreateFleetCommand,
  DescribeCapacityReservationsCommand,
  DescribeInstanceTypesCommand,
  DescribeInstancesCommand,
  EC2Client,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { AwsApiError } from '../../src/providers/aws/index.js';
import { createSdkClients, SdkAwsPort } from '../../src/providers/aws/ports/sdk/index.js';

const ec2 = mockClient(EC2Client);
const port = (): SdkAwsPort => new SdkAwsPort(createSdkClients({ region: 'us-east-1', maxAttempts: 1 }), 'us-east-1');

afterEach(() => ec2.reset());

describe('SDK adapter: what the provider relies on', () => {
  it('asks CreateFleet for the merged target capacity with one override per type and subnet', async () => {
    ec2.on(CreateFleetCommand).resolves({ Instances: [] });
    await port().createFleet({
      capacityType: 'on-demand',
      allocationStrategy: 'lowest-price',
      targetCapacity: 12,
      overrides: [
        {
          launchTemplateName: 'karpenter.k8s.aws/1',
          instanceType: 'm5.large',
          subnetId: 'subnet-a',
          zone: 'us-east-1a',
        },
        {
          launchTemplateName: 'karpenter.k8s.aws/1',
          instanceType: 'm5.large',
          subnetId: 'subnet-b',
          zone: 'us-east-1b',
        },
        {
          launchTemplateName: 'karpenter.k8s.aws/2',
          instanceType: 'm6g.large',
          subnetId: 'subnet-a',
          zone: 'us-east-1a',
        },
      ],
      tags: { 'karpenter.sh/nodepool': 'default' },
    });
    const input = ec2.commandCalls(CreateFleetCommand)[0]?.args[0].input;
    expect(input?.TargetCapacitySpecification).toEqual({
      TotalTargetCapacity: 12,
      DefaultTargetCapacityType: 'on-demand',
    });
    expect(input?.OnDemandOptions?.AllocationStrategy).toBe('lowest-price');
    expect(input?.LaunchTemplateConfigs?.map((c) => c.Overrides?.length)).toEqual([2, 1]);
    expect(input?.TagSpecifications?.find((t) => t.ResourceType === 'instance')?.Tags).toEqual([
      { Key: 'karpenter.sh/nodepool', Value: 'default' },
    ]);
  });

  it('counts the default network card interfaces and Neuron cores', async () => {
    ec2.on(DescribeInstanceTypesCommand).resolves({
      InstanceTypes: [
        {
          InstanceType: 'trn1.32xlarge',
          VCpuInfo: { DefaultVCpus: 128 },
          MemoryInfo: { SizeInMiB: 524288 },
          ProcessorInfo: { SupportedArchitectures: ['x86_64'] },
          NetworkInfo: {
            MaximumNetworkInterfaces: 40,
            Ipv4AddressesPerInterface: 50,
            DefaultNetworkCardIndex: 0,
            NetworkCards: [
              { NetworkCardIndex: 0, MaximumNetworkInterfaces: 5 },
              { NetworkCardIndex: 1, MaximumNetworkInterfaces: 5 },
            ],
          },
          NeuronInfo: { NeuronDevices: [{ Name: 'Trainium', Count: 16, CoreInfo: { Count: 2 } }] },
        },
      ],
    });
    const [t] = await port().describeInstanceTypes();
    expect(t?.maxNetworkInterfaces).toBe(5);
    expect(t?.accelerators).toEqual([{ name: 'trainium', manufacturer: 'aws', count: 16, coreCount: 2 }]);
  });

  it('pages through DescribeInstances reservations', async () => {
    ec2
      .on(DescribeInstancesCommand, { NextToken: undefined })
      .resolves({
        Reservations: [
          {
            Instances: [
              { InstanceId: 'i-1', State: { Name: 'running' }, Placement: { AvailabilityZone: 'us-east-1a' } },
            ],
          },
        ],
        NextToken: 'n',
      })
      .on(DescribeInstancesCommand, { NextToken: 'n' })
      .resolves({
        Reservations: [{ Instances: [{ InstanceId: 'i-2', State: { Name: 'pending' }, InstanceLifecycle: 'spot' }] }],
      });
    const found = await port().describeInstances({
      filters: [{ name: 'tag:kubernetes.io/cluster/demo', values: ['owned'] }],
    });
    expect(found.map((i) => [i.instanceId, i.state, i.capacityType])).toEqual([
      ['i-1', 'running', 'on-demand'],
      ['i-2', 'pending', 'spot'],
    ]);
  });

  it('classifies not-found and throttling on mutating calls', async () => {
    const notFound = Object.assign(new Error('gone'), { name: 'InvalidInstanceID.NotFound' });
    ec2
      .on(TerminateInstancesCommand)
      .rejectsOnce(notFound)
      .rejectsOnce(Object.assign(new Error('slow down'), { name: 'RequestLimitExceeded' }));
    const first: unknown = await port()
      .terminateInstances(['i-1'])
      .catch((e: unknown) => e);
    expect(AwsApiError.isKind(first, 'NotFound')).toBe(true);
    const second: unknown = await port()
      .terminateInstances(['i-1'])
      .catch((e: unknown) => e);
    expect(AwsApiError.isKind(second, 'Throttled')).toBe(true);
  });

  it('reads capacity reservations by id (without MaxResults, which EC2 refuses there) and by filters', async () => {
    ec2.on(DescribeCapacityReservationsCommand).resolves({
      CapacityReservations: [
        {
          CapacityReservationId: 'cr-1',
          InstanceType: 'p5.48xlarge',
          AvailabilityZone: 'us-east-1a',
          OwnerId: '123456789012',
          InstanceMatchCriteria: 'targeted',
          ReservationType: 'capacity-block',
          State: 'active',
          AvailableInstanceCount: 2,
          TotalInstanceCount: 4,
          EndDate: new Date('2026-12-01T00:00:00Z'),
          Interruptible: true,
          Tags: [{ Key: 'team', Value: 'ml' }],
        },
      ],
    });
    const [r] = await port().describeCapacityReservations({
      ids: ['cr-1'],
      filters: [{ name: 'state', values: ['active'] }],
    });
    expect(r).toEqual({
      capacityReservationId: 'cr-1',
      instanceType: 'p5.48xlarge',
      zone: 'us-east-1a',
      ownerId: '123456789012',
      instanceMatchCriteria: 'targeted',
      reservationType: 'capacity-block',
      state: 'active',
      availableInstanceCount: 2,
      totalInstanceCount: 4,
      endDate: new Date('2026-12-01T00:00:00Z'),
      interruptible: true,
      tags: { team: 'ml' },
    });
    await port().describeCapacityReservations({ filters: [{ name: 'tag:team', values: ['ml'] }] });
    const [byId, byFilter] = ec2.commandCalls(DescribeCapacityReservationsCommand).map((c) => c.args[0].input);
    expect(byId).toEqual({ CapacityReservationIds: ['cr-1'], Filters: [{ Name: 'state', Values: ['active'] }] });
    expect(byFilter).toEqual({ MaxResults: 1000, Filters: [{ Name: 'tag:team', Values: ['ml'] }] });
  });
});
