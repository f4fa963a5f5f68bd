/** Builds CreateLaunchTemplate data and CreateFleet input from port records, and reads CreateFleet output. */
import type {
  CreateFleetCommandInput,
  CreateFleetCommandOutput,
  LaunchTemplateInstanceNetworkInterfaceSpecificationRequest,
  RequestLaunchTemplateData,
  _InstanceType,
} from '@aws-sdk/client-ec2';
import type { FleetRequest, FleetResult, LaunchNetworkInterface, LaunchTemplateInput } from '../types.js';
import { toTags } from './ec2-mappers.js';

function toNetworkInterface(n: LaunchNetworkInterface): LaunchTemplateInstanceNetworkInterfaceSpecificationRequest {
  const ct = n.connectionTracking;
  return {
    NetworkCardIndex: n.networkCardIndex,
    DeviceIndex: n.deviceIndex,
    // The primary ENA interface is EC2's default type: the field is left out for it.
    ...(n.interfaceType === 'interface' ? {} : { InterfaceType: n.interfaceType }),
    Groups: n.groups,
    ...(n.ipv4PrefixCount === undefined ? {} : { Ipv4PrefixCount: n.ipv4PrefixCount }),
    ...(n.associatePublicIpAddress === undefined ? {} : { AssociatePublicIpAddress: n.associatePublicIpAddress }),
    ...(ct === undefined
      ? {}
      : {
          ConnectionTrackingSpecification: {
            TcpEstablishedTimeout: ct.tcpEstablishedTimeout,
            UdpStreamTimeout: ct.udpStreamTimeout,
            UdpTimeout: ct.udpTimeout,
          },
        }),
  };
}

/** The optional parts of a template: interfaces, CPU, enclave, placement and capacity-reservation options. */
function launchOptions(input: LaunchTemplateInput): RequestLaunchTemplateData {
  const cr = input.capacityReservation;
  return {
    ...(input.networkInterfaces === undefined
      ? { SecurityGroupIds: input.securityGroupIds }
      : { NetworkInterfaces: input.networkInterfaces.map(toNetworkInterface) }),
    ...(input.cpuOptions === undefined
      ? {}
      : { CpuOptions: { NestedVirtualization: input.cpuOptions.nestedVirtualization } }),
    ...(input.enclaveOptions === undefined ? {} : { EnclaveOptions: { Enabled: input.enclaveOptions.enabled } }),
    ...(input.placement === undefined
      ? {}
      : { Placement: { GroupId: input.placement.groupId, PartitionNumber: input.placement.partitionNumber } }),
    ...(cr === undefined
      ? {}
      : {
          CapacityReservationSpecification: {
            CapacityReservationPreference: cr.preference,
            ...(cr.reservationId === undefined
              ? {}
              : { CapacityReservationTarget: { CapacityReservationId: cr.reservationId } }),
          },
          ...(cr.marketType === undefined ? {} : { InstanceMarketOptions: { MarketType: cr.marketType } }),
        }),
  };
}

/** The LaunchTemplateData of a port launch template (userData base64, IMDS options, EBS devices, tags). */
export function buildLaunchTemplateData(input: LaunchTemplateInput): RequestLaunchTemplateData {
  return {
    ImageId: input.imageId,
    UserData: Buffer.from(input.userData, 'utf8').toString('base64'),
    IamInstanceProfile: { Name: input.instanceProfileName },
    ...launchOptions(input),
    MetadataOptions: {
      HttpEndpoint: input.metadataOptions.httpEndpoint,
      HttpTokens: input.metadataOptions.httpTokens,
      HttpPutResponseHopLimit: input.metadataOptions.httpPutResponseHopLimit,
      HttpProtocolIpv6: input.metadataOptions.httpProtocolIpv6,
    },
    Monitoring: { Enabled: input.detailedMonitoring ?? false },
    BlockDeviceMappings: input.blockDeviceMappings.map((b) => ({
      DeviceName: b.deviceName,
      Ebs: {
        VolumeSize: b.volumeSizeGiB,
        VolumeType: b.volumeType as never,
        Iops: b.iops,
        Throughput: b.throughput,
        Encrypted: b.encrypted,
        KmsKeyId: b.kmsKeyId,
        DeleteOnTermination: b.deleteOnTermination,
        SnapshotId: b.snapshotId,
      },
    })),
    TagSpecifications: [
      { ResourceType: 'instance', Tags: toTags(input.tags) },
      { ResourceType: 'volume', Tags: toTags(input.tags) },
      { ResourceType: 'network-interface', Tags: toTags(input.tags) },
    ],
  };
}

/** CreateFleet input of type `instant` (target capacity as asked, default 1), one override per type x subnet. */
export function buildCreateFleetInput(req: FleetRequest): CreateFleetCommandInput {
  const byTemplate = new Map<string, FleetRequest['overrides']>();
  for (const o of req.overrides)
    byTemplate.set(o.launchTemplateName, [...(byTemplate.get(o.launchTemplateName) ?? []), o]);
  const options =
    req.capacityType === 'spot'
      ? { SpotOptions: { AllocationStrategy: req.allocationStrategy as never } }
      : { OnDemandOptions: { AllocationStrategy: req.allocationStrategy as never } };
  return {
    Type: 'instant',
    ...(req.clientToken === undefined ? {} : { ClientToken: req.clientToken }),
    TargetCapacitySpecification: {
      TotalTargetCapacity: req.targetCapacity ?? 1,
      DefaultTargetCapacityType: req.capacityType,
    },
    ...options,
    LaunchTemplateConfigs: [...byTemplate.entries()].map(([name, overrides]) => ({
      LaunchTemplateSpecification: { LaunchTemplateName: name, Version: '$Latest' },
      Overrides: overrides.map((o) => ({
        InstanceType: o.instanceType as _InstanceType,
        SubnetId: o.subnetId,
        AvailabilityZone: o.zone,
        ...(o.priority === undefined ? {} : { Priority: o.priority }),
      })),
    })),
    TagSpecifications: [
      { ResourceType: 'instance', Tags: toTags(req.tags) },
      { ResourceType: 'volume', Tags: toTags(req.tags) },
      { ResourceType: 'fleet', Tags: toTags(req.tags) },
    ],
  };
}

/** The instances and per-override errors of a CreateFleet response. */
export function fromFleetOutput(out: CreateFleetCommandOutput, req: FleetRequest): FleetResult {
  const instances = (out.Instances ?? []).flatMap((i) =>
    (i.InstanceIds ?? []).map((instanceId) => ({
      instanceId,
      instanceType: i.InstanceType ?? i.LaunchTemplateAndOverrides?.Overrides?.InstanceType ?? '',
      zone: i.LaunchTemplateAndOverrides?.Overrides?.AvailabilityZone ?? '',
      subnetId: i.LaunchTemplateAndOverrides?.Overrides?.SubnetId ?? '',
      capacityType: i.Lifecycle === 'spot' ? ('spot' as const) : req.capacityType,
    })),
  );
  const errors = (out.Errors ?? []).map((e) => ({
    instanceType: e.LaunchTemplateAndOverrides?.Overrides?.InstanceType ?? '',
    subnetId: e.LaunchTemplateAndOverrides?.Overrides?.SubnetId ?? '',
    zone: e.LaunchTemplateAndOverrides?.Overrides?.AvailabilityZone ?? '',
    code: e.ErrorCode ?? 'Unknown',
    message: e.ErrorMessage ?? '',
  }));
  return { instances, errors };
}
