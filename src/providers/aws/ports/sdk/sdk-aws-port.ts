/** The production AwsPort: AWS SDK v3 calls, paged through, with SDK errors mapped to AwsApiError. */
import {
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  CreateTagsCommand,
  DeleteLaunchTemplateCommand,
  DescribePlacementGroupsCommand,
  paginateDescribeCapacityReservations,
  paginateDescribeImages,
  paginateDescribeInstanceTypeOfferings,
  paginateDescribeInstanceTypes,
  paginateDescribeInstances,
  paginateDescribeLaunchTemplates,
  paginateDescribeSecurityGroups,
  paginateDescribeSpotPriceHistory,
  paginateDescribeSubnets,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { GetParametersCommand } from '@aws-sdk/client-ssm';
import type { AwsPort } from '../aws-port.js';
import { toAwsApiError } from '../errors.js';
import type {
  CapacityReservationInfo,
  Filter,
  FleetRequest,
  FleetResult,
  ImageInfo,
  ImageQuery,
  InstanceInfo,
  InstanceProfileInfo,
  InstanceTypeInfo,
  InstanceTypeOffering,
  LaunchTemplateInfo,
  LaunchTemplateInput,
  PlacementGroupInfo,
  SecurityGroupInfo,
  SpotPrice,
  SubnetInfo,
  Tags,
} from '../types.js';
import {
  fromCapacityReservation,
  fromImage,
  fromInstance,
  fromPlacementGroup,
  fromInstanceType,
  fromLaunchTemplate,
  fromSecurityGroup,
  fromSubnet,
  toFilters,
  toTags,
} from './ec2-mappers.js';
import { buildCreateFleetInput, buildLaunchTemplateData, fromFleetOutput } from './fleet-mappers.js';
import { SdkIamPricing } from './sdk-iam-pricing.js';
import type { SdkClients } from './sdk-clients.js';

/** Runs one SDK call, rethrowing any failure as an AwsApiError. */
export async function sdkCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e: unknown) {
    throw toAwsApiError(e);
  }
}

async function collect<P, T>(pages: AsyncIterable<P>, pick: (page: P) => T[]): Promise<T[]> {
  return sdkCall(async () => {
    const out: T[] = [];
    for await (const page of pages) out.push(...pick(page));
    return out;
  });
}

/** The AwsPort over the AWS SDK v3 clients. */
export class SdkAwsPort extends SdkIamPricing implements AwsPort {
  readonly region: string;
  constructor(clients: SdkClients, region: string) {
    super(clients);
    this.region = region;
  }

  /** All subnets matching the filters. */
  describeSubnets(filters: Filter[]): Promise<SubnetInfo[]> {
    const pages = paginateDescribeSubnets({ client: this.clients.ec2 }, { Filters: toFilters(filters) });
    return collect(pages, (p) => (p.Subnets ?? []).map(fromSubnet));
  }

  /** All security groups matching the filters. */
  describeSecurityGroups(filters: Filter[]): Promise<SecurityGroupInfo[]> {
    const pages = paginateDescribeSecurityGroups({ client: this.clients.ec2 }, { Filters: toFilters(filters) });
    return collect(pages, (p) => (p.SecurityGroups ?? []).map(fromSecurityGroup));
  }

  /** All images matching ids, owners and filters. */
  describeImages(query: ImageQuery): Promise<ImageInfo[]> {
    const pages = paginateDescribeImages(
      { client: this.clients.ec2 },
      {
        ...(query.imageIds === undefined ? {} : { ImageIds: query.imageIds }),
        ...(query.owners === undefined ? {} : { Owners: query.owners }),
        Filters: toFilters(query.filters ?? []),
      },
    );
    return collect(pages, (p) => (p.Images ?? []).map(fromImage));
  }

  /** Every instance type of the region. */
  describeInstanceTypes(): Promise<InstanceTypeInfo[]> {
    const pages = paginateDescribeInstanceTypes({ client: this.clients.ec2 }, {});
    return collect(pages, (p) => (p.InstanceTypes ?? []).map(fromInstanceType));
  }

  /** Every (type, zone) offering of the region. */
  describeInstanceTypeOfferings(): Promise<InstanceTypeOffering[]> {
    const pages = paginateDescribeInstanceTypeOfferings(
      { client: this.clients.ec2 },
      { LocationType: 'availability-zone' },
    );
    return collect(pages, (p) =>
      (p.InstanceTypeOfferings ?? []).map((o) => ({ instanceType: o.InstanceType ?? '', zone: o.Location ?? '' })),
    );
  }

  /** Linux/UNIX spot prices since the start time. */
  describeSpotPriceHistory(input: { startTime: Date; instanceTypes?: string[] }): Promise<SpotPrice[]> {
    const pages = paginateDescribeSpotPriceHistory(
      { client: this.clients.ec2 },
      {
        StartTime: input.startTime,
        ProductDescriptions: ['Linux/UNIX'],
        ...(input.instanceTypes === undefined ? {} : { InstanceTypes: input.instanceTypes as never[] }),
      },
    );
    return collect(pages, (p) =>
      (p.SpotPriceHistory ?? []).map((s) => ({
        instanceType: s.InstanceType ?? '',
        zone: s.AvailabilityZone ?? '',
        price: Number(s.SpotPrice ?? 'NaN'),
        timestamp: s.Timestamp ?? new Date(0),
      })),
    );
  }

  /** Available placement groups by ids or names (DescribePlacementGroups is not paginated). */
  async describePlacementGroups(input: { groupIds?: string[]; groupNames?: string[] }): Promise<PlacementGroupInfo[]> {
    const out = await sdkCall(() =>
      this.clients.ec2.send(
        new DescribePlacementGroupsCommand({
          ...(input.groupIds === undefined ? {} : { GroupIds: input.groupIds }),
          ...(input.groupNames === undefined ? {} : { GroupNames: input.groupNames }),
          Filters: [{ Name: 'state', Values: ['available'] }],
        }),
      ),
    );
    return (out.PlacementGroups ?? []).flatMap(fromPlacementGroup);
  }

  /** Capacity reservations by ids or filters (MaxResults cannot be given with ids). */
  describeCapacityReservations(input: { ids?: string[]; filters?: Filter[] }): Promise<CapacityReservationInfo[]> {
    const pages = paginateDescribeCapacityReservations(
      { client: this.clients.ec2 },
      {
        ...(input.ids === undefined ? { MaxResults: 1000 } : { CapacityReservationIds: input.ids }),
        ...(input.filters === undefined ? {} : { Filters: toFilters(input.filters) }),
      },
    );
    return collect(pages, (p) => (p.CapacityReservations ?? []).map(fromCapacityReservation));
  }

  /** Creates a launch template (userData base64-encoded here). */
  async createLaunchTemplate(input: LaunchTemplateInput): Promise<LaunchTemplateInfo> {
    const out = await sdkCall(() =>
      this.clients.ec2.send(
        new CreateLaunchTemplateCommand({
          LaunchTemplateName: input.name,
          LaunchTemplateData: buildLaunchTemplateData(input),
          TagSpecifications: [{ ResourceType: 'launch-template', Tags: toTags(input.tags) }],
        }),
      ),
    );
    return fromLaunchTemplate(out.LaunchTemplate ?? { LaunchTemplateName: input.name });
  }

  /** Launch templates by name and/or filters. */
  describeLaunchTemplates(input: { names?: string[]; filters?: Filter[] }): Promise<LaunchTemplateInfo[]> {
    const pages = paginateDescribeLaunchTemplates(
      { client: this.clients.ec2 },
      {
        ...(input.names === undefined ? {} : { LaunchTemplateNames: input.names }),
        ...(input.filters === undefined ? {} : { Filters: toFilters(input.filters) }),
      },
    );
    return collect(pages, (p) => (p.LaunchTemplates ?? []).map(fromLaunchTemplate));
  }

  /** Deletes a launch template by name. */
  async deleteLaunchTemplate(name: string): Promise<void> {
    await sdkCall(() => this.clients.ec2.send(new DeleteLaunchTemplateCommand({ LaunchTemplateName: name })));
  }

  /** CreateFleet of type instant for one instance. */
  async createFleet(request: FleetRequest): Promise<FleetResult> {
    const out = await sdkCall(() => this.clients.ec2.send(new CreateFleetCommand(buildCreateFleetInput(request))));
    return fromFleetOutput(out, request);
  }

  /** Instances by id and/or filters. */
  describeInstances(input: { instanceIds?: string[]; filters?: Filter[] }): Promise<InstanceInfo[]> {
    const pages = paginateDescribeInstances(
      { client: this.clients.ec2 },
      {
        ...(input.instanceIds === undefined ? {} : { InstanceIds: input.instanceIds }),
        ...(input.filters === undefined ? {} : { Filters: toFilters(input.filters) }),
      },
    );
    return collect(pages, (p) => (p.Reservations ?? []).flatMap((r) => (r.Instances ?? []).map(fromInstance)));
  }

  /** Terminates instances. */
  async terminateInstances(instanceIds: string[]): Promise<void> {
    await sdkCall(() => this.clients.ec2.send(new TerminateInstancesCommand({ InstanceIds: instanceIds })));
  }

  /** Tags resources. */
  async createTags(input: { resourceIds: string[]; tags: Tags }): Promise<void> {
    await sdkCall(() =>
      this.clients.ec2.send(new CreateTagsCommand({ Resources: input.resourceIds, Tags: toTags(input.tags) })),
    );
  }

  /** SSM parameter values, in batches of 10 (the API's limit). */
  async getParameters(names: string[]): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (let i = 0; i < names.length; i += 10) {
      const res = await sdkCall(() =>
        this.clients.ssm.send(new GetParametersCommand({ Names: names.slice(i, i + 10) })),
      );
      for (const p of res.Parameters ?? []) if (p.Name !== undefined && p.Value !== undefined) out[p.Name] = p.Value;
    }
    return out;
  }
}

/** Re-exported for symmetry with the port. */
export type { InstanceProfileInfo };
