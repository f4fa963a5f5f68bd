/** Maps AWS SDK v3 EC2 shapes to the port's plain records (and back for tags and filters). */
import type {
  CapacityReservation,
  Filter as SdkFilter,
  Image,
  Instance,
  InstanceTypeInfo as SdkInstanceTypeInfo,
  LaunchTemplate,
  PlacementGroup,
  SecurityGroup,
  Subnet,
  Tag,
} from '@aws-sdk/client-ec2';
import type {
  AcceleratorInfo,
  CapacityReservationInfo,
  Ec2Architecture,
  Filter,
  ImageInfo,
  InstanceInfo,
  InstanceState,
  InstanceTypeInfo,
  LaunchTemplateInfo,
  PlacementGroupInfo,
  PlacementGroupStrategy,
  SecurityGroupInfo,
  SubnetInfo,
  Tags,
} from '../types.js';

/** EC2 tag list to map. */
export function fromTags(tags: Tag[] | undefined): Tags {
  const out: Tags = {};
  for (const t of tags ?? []) if (t.Key !== undefined) out[t.Key] = t.Value ?? '';
  return out;
}

/** Map to EC2 tag list. */
export function toTags(tags: Tags): Tag[] {
  return Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
}

/** Port filters to SDK filters. */
export function toFilters(filters: Filter[]): SdkFilter[] {
  return filters.map((f) => ({ Name: f.name, Values: f.values }));
}

/** SDK subnet to port subnet. */
export function fromSubnet(s: Subnet): SubnetInfo {
  return {
    subnetId: s.SubnetId ?? '',
    vpcId: s.VpcId ?? '',
    zone: s.AvailabilityZone ?? '',
    zoneId: s.AvailabilityZoneId ?? '',
    availableIpAddressCount: s.AvailableIpAddressCount ?? 0,
    tags: fromTags(s.Tags),
  };
}

/** SDK security group to port security group. */
export function fromSecurityGroup(g: SecurityGroup): SecurityGroupInfo {
  return { groupId: g.GroupId ?? '', groupName: g.GroupName ?? '', vpcId: g.VpcId ?? '', tags: fromTags(g.Tags) };
}

/** SDK image to port image. */
export function fromImage(i: Image): ImageInfo {
  return {
    imageId: i.ImageId ?? '',
    name: i.Name ?? '',
    ownerId: i.OwnerId ?? '',
    architecture: i.Architecture === 'arm64' ? 'arm64' : 'x86_64',
    creationDate: i.CreationDate ?? '',
    ...(i.DeprecationTime === undefined ? {} : { deprecationTime: i.DeprecationTime }),
    state: (i.State ?? 'available') as ImageInfo['state'],
    tags: fromTags(i.Tags),
  };
}

interface SdkAccelerator {
  Name?: string;
  Manufacturer?: string;
  Count?: number;
  MemoryInfo?: { SizeInMiB?: number };
  CoreCount?: number;
}

function accelerators(list: SdkAccelerator[] | undefined): AcceleratorInfo[] {
  return (list ?? []).map((g) => ({
    name: (g.Name ?? '').toLowerCase().replace(/ /g, '-'),
    manufacturer: (g.Manufacturer ?? '').toLowerCase().replace(/ /g, '-'),
    count: g.Count ?? 0,
    ...(g.MemoryInfo?.SizeInMiB === undefined ? {} : { memoryMiB: g.MemoryInfo.SizeInMiB }),
    ...(g.CoreCount === undefined ? {} : { coreCount: g.CoreCount }),
  }));
}

function networkBandwidthMbps(info: SdkInstanceTypeInfo): number | undefined {
  const gbps = info.NetworkInfo?.NetworkCards?.reduce((sum, c) => sum + (c.BaselineBandwidthInGbps ?? 0), 0);
  return gbps === undefined || gbps === 0 ? undefined : Math.round(gbps * 1000);
}

function processorFacts(
  info: SdkInstanceTypeInfo,
): Pick<InstanceTypeInfo, 'architectures' | 'cpuManufacturer' | 'sustainedClockSpeedMhz'> {
  const clock = info.ProcessorInfo?.SustainedClockSpeedInGhz;
  return {
    architectures: (info.ProcessorInfo?.SupportedArchitectures ?? []).filter(
      (a): a is Ec2Architecture => a === 'x86_64' || a === 'arm64',
    ),
    cpuManufacturer: info.ProcessorInfo?.Manufacturer?.toLowerCase(),
    sustainedClockSpeedMhz: clock === undefined ? undefined : Math.round(clock * 1000),
  };
}

// The VPC CNI only uses the default network card, so max pods counts that card's interfaces.
function defaultCardInterfaces(info: SdkInstanceTypeInfo): number | undefined {
  const cards = info.NetworkInfo?.NetworkCards;
  const index = info.NetworkInfo?.DefaultNetworkCardIndex ?? 0;
  return cards?.find((c) => (c.NetworkCardIndex ?? 0) === index)?.MaximumNetworkInterfaces;
}

type NetworkFacts =
  | 'networkCards'
  | 'maxNetworkInterfaces'
  | 'ipv4AddressesPerInterface'
  | 'efaCount'
  | 'networkBandwidthMbps'
  | 'encryptionInTransitSupported';

function networkFacts(info: SdkInstanceTypeInfo): Pick<InstanceTypeInfo, NetworkFacts> {
  return {
    networkCards: (info.NetworkInfo?.NetworkCards ?? []).map((c) => ({
      index: c.NetworkCardIndex ?? 0,
      maxInterfaces: c.MaximumNetworkInterfaces ?? 0,
    })),
    maxNetworkInterfaces: defaultCardInterfaces(info) ?? info.NetworkInfo?.MaximumNetworkInterfaces ?? 1,
    ipv4AddressesPerInterface: info.NetworkInfo?.Ipv4AddressesPerInterface ?? 1,
    efaCount: info.NetworkInfo?.EfaInfo?.MaximumEfaInterfaces,
    networkBandwidthMbps: networkBandwidthMbps(info),
    encryptionInTransitSupported: info.NetworkInfo?.EncryptionInTransitSupported ?? false,
  };
}

function featureFacts(
  info: SdkInstanceTypeInfo,
): Pick<InstanceTypeInfo, 'nitroEnclavesSupported' | 'processorFeatures' | 'placementGroupStrategies'> {
  return {
    nitroEnclavesSupported: info.NitroEnclavesSupport === 'supported',
    processorFeatures: [...(info.ProcessorInfo?.SupportedFeatures ?? [])],
    placementGroupStrategies: (info.PlacementGroupInfo?.SupportedStrategies ?? []).filter(
      (x): x is PlacementGroupStrategy => x === 'cluster' || x === 'partition' || x === 'spread',
    ),
  };
}

/** SDK instance type to port instance type. */
export function fromInstanceType(info: SdkInstanceTypeInfo): InstanceTypeInfo {
  const nvme =
    info.InstanceStorageInfo?.NvmeSupport === 'required' ? info.InstanceStorageInfo.TotalSizeInGB : undefined;
  return {
    instanceType: info.InstanceType ?? '',
    vcpus: info.VCpuInfo?.DefaultVCpus ?? 0,
    memoryMiB: info.MemoryInfo?.SizeInMiB ?? 0,
    ...processorFacts(info),
    ...networkFacts(info),
    hypervisor: info.Hypervisor,
    ...featureFacts(info),
    bareMetal: info.BareMetal ?? false,
    gpus: accelerators(info.GpuInfo?.Gpus),
    accelerators: accelerators(
      info.NeuronInfo?.NeuronDevices?.map((d) => ({
        Name: d.Name,
        Manufacturer: 'aws',
        Count: d.Count,
        CoreCount: d.CoreInfo?.Count,
      })),
    ),
    ebsBandwidthMbps: info.EbsInfo?.EbsOptimizedInfo?.BaselineBandwidthInMbps,
    localNvmeGb: nvme,
    supportedUsageClasses: (info.SupportedUsageClasses ?? []).filter(
      (c): c is 'on-demand' | 'spot' => c === 'on-demand' || c === 'spot',
    ),
  };
}

/** SDK launch template to port launch template. */
export function fromLaunchTemplate(t: LaunchTemplate): LaunchTemplateInfo {
  return { launchTemplateId: t.LaunchTemplateId ?? '', name: t.LaunchTemplateName ?? '', tags: fromTags(t.Tags) };
}

/** SDK instance to port instance. */
export function fromInstance(i: Instance): InstanceInfo {
  return {
    instanceId: i.InstanceId ?? '',
    instanceType: i.InstanceType ?? '',
    zone: i.Placement?.AvailabilityZone ?? '',
    subnetId: i.SubnetId ?? '',
    imageId: i.ImageId ?? '',
    state: (i.State?.Name ?? 'pending') as InstanceState,
    capacityType: i.InstanceLifecycle === 'spot' ? 'spot' : 'on-demand',
    launchTime: i.LaunchTime ?? new Date(0),
    securityGroupIds: (i.SecurityGroups ?? []).map((g) => g.GroupId ?? ''),
    ...(i.PrivateDnsName === undefined ? {} : { privateDnsName: i.PrivateDnsName }),
    ...(i.CapacityReservationId === undefined ? {} : { capacityReservationId: i.CapacityReservationId }),
    tags: fromTags(i.Tags),
  };
}

/** SDK placement group to port placement group (none for a strategy the provider does not know). */
export function fromPlacementGroup(g: PlacementGroup): PlacementGroupInfo[] {
  const strategy = g.Strategy;
  if (strategy !== 'cluster' && strategy !== 'partition' && strategy !== 'spread') return [];
  return [
    {
      groupId: g.GroupId ?? '',
      groupName: g.GroupName ?? '',
      strategy,
      ...(g.PartitionCount === undefined ? {} : { partitionCount: g.PartitionCount }),
      state: g.State ?? 'available',
    },
  ];
}

/** SDK capacity reservation to port capacity reservation. */
export function fromCapacityReservation(r: CapacityReservation): CapacityReservationInfo {
  return {
    capacityReservationId: r.CapacityReservationId ?? '',
    instanceType: r.InstanceType ?? '',
    zone: r.AvailabilityZone ?? '',
    ownerId: r.OwnerId ?? '',
    instanceMatchCriteria: r.InstanceMatchCriteria ?? 'open',
    reservationType: r.ReservationType ?? 'default',
    state: r.State ?? 'active',
    availableInstanceCount: r.AvailableInstanceCount ?? 0,
    totalInstanceCount: r.TotalInstanceCount ?? 0,
    ...(r.EndDate === undefined ? {} : { endDate: r.EndDate }),
    interruptible: r.Interruptible ?? false,
    tags: fromTags(r.Tags),
  };
}
