/**
 * The AWS port's data shapes: plain, SDK-independent records of what the provider reads and writes.
 * Both the SDK adapter and the simulated EC2 speak these, so the provider never sees an SDK type.
 */

/** Resource tags as a map (EC2 tags are unique by key). */
export type Tags = Record<string, string>;

/** An EC2 describe filter (`tag:karpenter.sh/discovery`, `subnet-id`, `tag-key`, ...). */
export interface Filter {
  name: string;
  values: string[];
}

/** A subnet. */
export interface SubnetInfo {
  subnetId: string;
  vpcId: string;
  zone: string;
  zoneId: string;
  availableIpAddressCount: number;
  tags: Tags;
}

/** A security group. */
export interface SecurityGroupInfo {
  groupId: string;
  groupName: string;
  vpcId: string;
  tags: Tags;
}

/** An EC2 architecture as the EC2 API spells it. */
export type Ec2Architecture = 'x86_64' | 'arm64';

/** A machine image. */
export interface ImageInfo {
  imageId: string;
  name: string;
  ownerId: string;
  architecture: Ec2Architecture;
  /** ISO-8601. */
  creationDate: string;
  /** ISO-8601, when set. */
  deprecationTime?: string;
  state: 'available' | 'pending' | 'failed' | 'deregistered';
  tags: Tags;
}

/** How DescribeImages is narrowed. */
export interface ImageQuery {
  imageIds?: string[];
  owners?: string[];
  filters?: Filter[];
}

/** One GPU or accelerator model in an instance type. */
export interface AcceleratorInfo {
  name: string;
  manufacturer: string;
  count: number;
  memoryMiB?: number;
  /** Cores per device (Neuron devices report their NeuronCores). */
  coreCount?: number;
}

/** The facts about an instance type the provider turns into labels, capacity and overhead. */
export interface InstanceTypeInfo {
  instanceType: string;
  vcpus: number;
  memoryMiB: number;
  architectures: Ec2Architecture[];
  cpuManufacturer?: string;
  sustainedClockSpeedMhz?: number;
  hypervisor?: string;
  bareMetal: boolean;
  maxNetworkInterfaces: number;
  ipv4AddressesPerInterface: number;
  /** Branch interfaces for pods (security groups for pods); absent when not supported. */
  podEniCount?: number;
  efaCount?: number;
  gpus: AcceleratorInfo[];
  /** Inference accelerators (Neuron). */
  accelerators: AcceleratorInfo[];
  ebsBandwidthMbps?: number;
  networkBandwidthMbps?: number;
  localNvmeGb?: number;
  encryptionInTransitSupported: boolean;
  supportedUsageClasses: Array<'on-demand' | 'spot'>;
  /** Network cards and the interfaces each takes (absent: one card, `maxNetworkInterfaces`). */
  networkCards?: NetworkCardInfo[];
  /** Nitro Enclaves can run on the type (`NitroEnclavesSupport: supported`). */
  nitroEnclavesSupported?: boolean;
  /** `ProcessorInfo.SupportedFeatures` (e.g. `nested-virtualization`). */
  processorFeatures?: string[];
  /** Placement group strategies the type can join (`PlacementGroupInfo.SupportedStrategies`). */
  placementGroupStrategies?: PlacementGroupStrategy[];
}

/** One network card of an instance type. */
export interface NetworkCardInfo {
  index: number;
  maxInterfaces: number;
}

/** A placement group strategy. */
export type PlacementGroupStrategy = 'cluster' | 'partition' | 'spread';

/** A placement group as DescribePlacementGroups reports it. */
export interface PlacementGroupInfo {
  groupId: string;
  groupName: string;
  strategy: PlacementGroupStrategy;
  /** Partitions of a `partition` group. */
  partitionCount?: number;
  state: 'pending' | 'available' | 'deleting' | 'deleted';
}

/** A capacity reservation as DescribeCapacityReservations reports it. */
export interface CapacityReservationInfo {
  capacityReservationId: string;
  instanceType: string;
  zone: string;
  ownerId: string;
  /** `open` reservations also take untargeted launches of their type and zone; `targeted` only targeted ones. */
  instanceMatchCriteria: string;
  /** `default` (an on-demand capacity reservation) or `capacity-block`. */
  reservationType: string;
  /** `active`, `expired`, `cancelled`, `pending`, `failed`, `scheduled`, ... (only `active` ones take launches). */
  state: string;
  availableInstanceCount: number;
  totalInstanceCount: number;
  /** When the reservation ends (capacity blocks always have one). */
  endDate?: Date;
  /** The owner may reclaim the capacity (an interruptible reservation). */
  interruptible: boolean;
  tags: Tags;
}

/** An instance type offered in a zone. */
export interface InstanceTypeOffering {
  instanceType: string;
  zone: string;
}

/** One spot price point. */
export interface SpotPrice {
  instanceType: string;
  zone: string;
  price: number;
  timestamp: Date;
}

/** An EBS block device of a launch template. */
export interface BlockDeviceMapping {
  deviceName: string;
  volumeSizeGiB?: number;
  volumeType?: string;
  iops?: number;
  throughput?: number;
  encrypted?: boolean;
  kmsKeyId?: string;
  deleteOnTermination?: boolean;
  snapshotId?: string;
}

/** Instance metadata service options. */
export interface MetadataOptions {
  httpEndpoint: 'enabled' | 'disabled';
  httpTokens: 'required' | 'optional';
  httpPutResponseHopLimit: number;
  httpProtocolIpv6: 'enabled' | 'disabled';
}

/** What CreateLaunchTemplate is given. `userData` is plain text; the SDK adapter base64-encodes it. */
export interface LaunchTemplateInput {
  name: string;
  imageId: string;
  userData: string;
  securityGroupIds: string[];
  instanceProfileName: string;
  blockDeviceMappings: BlockDeviceMapping[];
  metadataOptions: MetadataOptions;
  /** Tags on the template itself and propagated to the instance, volumes and network interfaces. */
  tags: Tags;
  detailedMonitoring?: boolean;
  /** Interfaces at launch; when set, the security groups ride on them. */
  networkInterfaces?: LaunchNetworkInterface[];
  /** `CpuOptions.NestedVirtualization`. */
  cpuOptions?: { nestedVirtualization: 'enabled' | 'disabled' };
  /** Nitro Enclaves on the instance. */
  enclaveOptions?: { enabled: boolean };
  /** The placement group (and partition) instances launch into. */
  placement?: { groupId: string; partitionNumber?: number };
  /** Which capacity reservation the instance launches into (absent: any open one, as EC2 does by default). */
  capacityReservation?: LaunchCapacityReservation;
}

/** How a launch uses capacity reservations. */
export interface LaunchCapacityReservation {
  /** `capacity-reservations-only` targets `reservationId`; `none` keeps on-demand launches out of reservations. */
  preference: 'capacity-reservations-only' | 'none';
  reservationId?: string;
  /** Market type of the launch into the reservation. */
  marketType?: 'capacity-block' | 'interruptible-capacity-reservation';
}

/** Connection tracking idle timeouts (seconds) of an interface. */
export interface ConnectionTrackingSpec {
  tcpEstablishedTimeout?: number;
  udpStreamTimeout?: number;
  udpTimeout?: number;
}

/** One network interface of a launch template. */
export interface LaunchNetworkInterface {
  networkCardIndex: number;
  deviceIndex: number;
  /** `interface` (ENA), `efa` (EFA with IP), `efa-only` (EFA without IP). */
  interfaceType: 'interface' | 'efa' | 'efa-only';
  groups: string[];
  ipv4PrefixCount?: number;
  associatePublicIpAddress?: boolean;
  connectionTracking?: ConnectionTrackingSpec;
}

/** A launch template as DescribeLaunchTemplates reports it. */
export interface LaunchTemplateInfo {
  launchTemplateId: string;
  name: string;
  tags: Tags;
}

/** A capacity type as the provider buys it. */
export type PurchaseOption = 'on-demand' | 'spot';

/** One CreateFleet override: an instance type in a subnet, from a launch template. */
export interface FleetOverride {
  launchTemplateName: string;
  instanceType: string;
  subnetId: string;
  zone: string;
  /** Lower is preferred (used by the `prioritized` and `capacity-optimized-prioritized` strategies). */
  priority?: number;
}

/** A CreateFleet request of type `instant` for `targetCapacity` instances (default one). */
export interface FleetRequest {
  capacityType: PurchaseOption;
  /** `lowest-price` for on-demand, `price-capacity-optimized` for spot. */
  allocationStrategy: 'lowest-price' | 'price-capacity-optimized' | 'capacity-optimized-prioritized' | 'prioritized';
  overrides: FleetOverride[];
  tags: Tags;
  /** Instances to launch (default 1): concurrent identical launches are merged into one call. */
  targetCapacity?: number;
  /** Idempotency token. */
  clientToken?: string;
}

/** One instance a fleet launched. */
export interface FleetInstance {
  instanceId: string;
  instanceType: string;
  zone: string;
  subnetId: string;
  capacityType: PurchaseOption;
  /** The capacity reservation the instance runs in, when it does. */
  capacityReservationId?: string;
}

/** One override a fleet could not launch, with the EC2 error code (e.g. InsufficientInstanceCapacity). */
export interface FleetError {
  instanceType: string;
  subnetId: string;
  zone: string;
  code: string;
  message: string;
}

/** What CreateFleet returns: instances, and an error per override that failed. */
export interface FleetResult {
  instances: FleetInstance[];
  errors: FleetError[];
}

/** The EC2 instance states. */
export type InstanceState = 'pending' | 'running' | 'shutting-down' | 'terminated' | 'stopping' | 'stopped';

/** An instance as DescribeInstances reports it. */
export interface InstanceInfo {
  instanceId: string;
  instanceType: string;
  zone: string;
  subnetId: string;
  imageId: string;
  state: InstanceState;
  capacityType: PurchaseOption;
  launchTime: Date;
  securityGroupIds: string[];
  privateDnsName?: string;
  /** The capacity reservation the instance runs in, when it does. */
  capacityReservationId?: string;
  tags: Tags;
}

/** An IAM instance profile. */
export interface InstanceProfileInfo {
  name: string;
  arn: string;
  roles: string[];
  tags: Tags;
}
