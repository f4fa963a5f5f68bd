import {
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  DescribeInstanceTypesCommand,
  DescribeSubnetsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { GetInstanceProfileCommand, IAMClient } from '@aws-sdk/client-iam';
import { GetProductsCommand, PricingClient } from '@aws-sdk/client-pricing';
import { GetParametersCommand, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { AwsApiError } from '../errors.js';
import { createSdkClients } from './sdk-clients.js';
import { SdkAwsPort } from './sdk-aws-port.js';

const ec2 = mockClient(EC2Client);
const ssm = mockClient(SSMClient);
const iam = mockClient(IAMClient);
const pricing = mockClient(PricingClient);

function port(): SdkAwsPort {
  return new SdkAwsPort(createSdkClients({ region: 'us-west-2', maxAttempts: 1 }), 'us-west-2');
}

function sdkError(name: string): Error {
  const e = new Error(`${name} happened`);
  e.name = name;
  return e;
}

afterEach(() => {
  ec2.reset();
  ssm.reset();
  iam.reset();
  pricing.reset();
});

describe('SdkAwsPort', () => {
  it('pages through DescribeSubnets and passes the filters', async () => {
    ec2
      .on(DescribeSubnetsCommand, { NextToken: undefined })
      .resolves({
        Subnets: [{ SubnetId: 'subnet-1', AvailabilityZone: 'us-west-2a', Tags: [{ Key: 'k', Value: 'v' }] }],
        NextToken: 't2',
      })
      .on(DescribeSubnetsCommand, { NextToken: 't2' })
      .resolves({ Subnets: [{ SubnetId: 'subnet-2', AvailabilityZone: 'us-west-2b' }] });
    const subnets = await port().describeSubnets([{ name: 'tag:karpenter.sh/discovery', values: ['demo'] }]);
    expect(subnets.map((s) => s.subnetId)).toEqual(['subnet-1', 'subnet-2']);
    expect(subnets[0]?.tags).toEqual({ k: 'v' });
    const first = ec2.commandCalls(DescribeSubnetsCommand)[0]?.args[0].input;
    expect(first?.Filters).toEqual([{ Name: 'tag:karpenter.sh/discovery', Values: ['demo'] }]);
  });

  it('maps DescribeInstanceTypes facts the provider needs', async () => {
    ec2.on(DescribeInstanceTypesCommand).resolves({
      InstanceTypes: [
        {
          InstanceType: 'm5.large',
          VCpuInfo: { DefaultVCpus: 2 },
          MemoryInfo: { SizeInMiB: 8192 },
          ProcessorInfo: { SupportedArchitectures: ['x86_64'], Manufacturer: 'Intel', SustainedClockSpeedInGhz: 3.1 },
          NetworkInfo: { MaximumNetworkInterfaces: 3, Ipv4AddressesPerInterface: 10 },
          SupportedUsageClasses: ['on-demand', 'spot'],
        },
      ],
    });
    const [m5] = await port().describeInstanceTypes();
    expect(m5).toMatchObject({
      instanceType: 'm5.large',
      vcpus: 2,
      memoryMiB: 8192,
      cpuManufacturer: 'intel',
      sustainedClockSpeedMhz: 3100,
    });
    expect(m5?.maxNetworkInterfaces).toBe(3);
  });

  it('sends CreateFleet as instant, one override per type x subnet, and reads per-override errors', async () => {
    ec2.on(CreateFleetCommand).resolves({
      Instances: [
        {
          InstanceIds: ['i-1'],
          InstanceType: 'm5.large',
          Lifecycle: 'spot',
          LaunchTemplateAndOverrides: { Overrides: { SubnetId: 'subnet-2', AvailabilityZone: 'us-west-2b' } },
        },
      ],
      Errors: [
        {
          ErrorCode: 'InsufficientInstanceCapacity',
          ErrorMessage: 'no capacity',
          LaunchTemplateAndOverrides: {
            Overrides: { InstanceType: 'c5.large', SubnetId: 'subnet-1', AvailabilityZone: 'us-west-2a' },
          },
        },
      ],
    });
    const result = await port().createFleet({
      capacityType: 'spot',
      allocationStrategy: 'price-capacity-optimized',
      overrides: [
        { launchTemplateName: 'lt-a', instanceType: 'c5.large', subnetId: 'subnet-1', zone: 'us-west-2a' },
        { launchTemplateName: 'lt-a', instanceType: 'm5.large', subnetId: 'subnet-2', zone: 'us-west-2b' },
      ],
      tags: { 'karpenter.sh/nodepool': 'default' },
    });
    const input = ec2.commandCalls(CreateFleetCommand)[0]?.args[0].input;
    expect(input?.Type).toBe('instant');
    expect(input?.SpotOptions?.AllocationStrategy).toBe('price-capacity-optimized');
    expect(input?.TargetCapacitySpecification).toEqual({ TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' });
    expect(input?.LaunchTemplateConfigs?.[0]?.Overrides).toHaveLength(2);
    expect(result.instances).toEqual([
      { instanceId: 'i-1', instanceType: 'm5.large', zone: 'us-west-2b', subnetId: 'subnet-2', capacityType: 'spot' },
    ]);
    expect(result.errors[0]?.code).toBe('InsufficientInstanceCapacity');
  });

  it('base64-encodes userData and requires IMDSv2 tokens as asked', async () => {
    ec2
      .on(CreateLaunchTemplateCommand)
      .resolves({ LaunchTemplate: { LaunchTemplateName: 'lt', LaunchTemplateId: 'lt-1' } });
    await port().createLaunchTemplate({
      name: 'lt',
      imageId: 'ami-1',
      userData: '#!/bin/bash\necho hi',
      securityGroupIds: ['sg-1'],
      instanceProfileName: 'prof',
      blockDeviceMappings: [{ deviceName: '/dev/xvda', volumeSizeGiB: 20, volumeType: 'gp3' }],
      metadataOptions: {
        httpEndpoint: 'enabled',
        httpTokens: 'required',
        httpPutResponseHopLimit: 1,
        httpProtocolIpv6: 'disabled',
      },
      tags: { a: 'b' },
    });
    const data = ec2.commandCalls(CreateLaunchTemplateCommand)[0]?.args[0].input.LaunchTemplateData;
    expect(Buffer.from(data?.UserData ?? '', 'base64').toString()).toBe('#!/bin/bash\necho hi');
    expect(data?.MetadataOptions?.HttpTokens).toBe('required');
  });

  it('maps throttling and not-found SDK errors to typed AwsApiErrors', async () => {
    ec2.on(DescribeSubnetsCommand).rejects(sdkError('RequestLimitExceeded'));
    const err: unknown = await port()
      .describeSubnets([])
      .catch((e: unknown) => e);
    expect(AwsApiError.isKind(err, 'Throttled')).toBe(true);
    iam.on(GetInstanceProfileCommand).rejects(sdkError('NoSuchEntity'));
    await expect(port().getInstanceProfile('missing')).resolves.toBeUndefined();
  });

  it('asks SSM for parameters in batches of ten', async () => {
    ssm.on(GetParametersCommand).callsFake((input: { Names: string[] }) => ({
      Parameters: input.Names.map((n) => ({ Name: n, Value: `v-${n}` })),
    }));
    const names = Array.from({ length: 23 }, (_, i) => `/p/${i}`);
    const values = await port().getParameters(names);
    expect(Object.keys(values)).toHaveLength(23);
    expect(ssm.commandCalls(GetParametersCommand).map((c) => c.args[0].input.Names?.length)).toEqual([10, 10, 3]);
  });

  it('parses on-demand prices out of GetProducts documents', async () => {
    const doc = JSON.stringify({
      product: { attributes: { instanceType: 'm5.large' } },
      terms: { OnDemand: { x: { priceDimensions: { y: { pricePerUnit: { USD: '0.0960000000' } } } } } },
    });
    pricing.on(GetProductsCommand).resolves({ PriceList: [doc] });
    await expect(port().getOnDemandPrices('us-east-1')).resolves.toEqual({ 'm5.large': 0.096 });
    const filters = pricing.commandCalls(GetProductsCommand)[0]?.args[0].input.Filters ?? [];
    expect(filters).toContainEqual({ Type: 'TERM_MATCH', Field: 'regionCode', Value: 'us-east-1' });
  });

  it('configures the clients with the standard retry strategy', async () => {
    const clients = createSdkClients({ region: 'eu-west-1' });
    const strategy = await clients.ec2.config.retryStrategy();
    expect((strategy as { mode?: string }).mode).toBe('standard');
    expect(await clients.pricing.config.region()).toBe('us-east-1');
  });
});
