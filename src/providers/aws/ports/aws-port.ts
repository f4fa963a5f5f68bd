/**
 * The port through which the AWS provider reaches AWS: the EC2, SSM, IAM and Pricing operations it needs.
 * Implementations: the AWS SDK v3 adapter (production) and src/sim/ec2 (the simulated account).
 * Every method pages through results itself and throws AwsApiError on failure.
 */
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
} from './types.js';

/** The EC2 operations the provider uses. */
export interface Ec2Api {
  describeSubnets(filters: Filter[]): Promise<SubnetInfo[]>;
  describeSecurityGroups(filters: Filter[]): Promise<SecurityGroupInfo[]>;
  describeImages(query: ImageQuery): Promise<ImageInfo[]>;
  describeInstanceTypes(): Promise<InstanceTypeInfo[]>;
  /** Offerings by availability zone. */
  describeInstanceTypeOfferings(): Promise<InstanceTypeOffering[]>;
  /** Linux/UNIX spot prices since `startTime` (the latest point per type and zone is what counts). */
  describeSpotPriceHistory(input: { startTime: Date; instanceTypes?: string[] }): Promise<SpotPrice[]>;
  /** Placement groups in state `available`, by ids or names (an unknown one is simply absent). */
  describePlacementGroups(input: { groupIds?: string[]; groupNames?: string[] }): Promise<PlacementGroupInfo[]>;
  /**
   * Capacity reservations by ids or filters (`state`, `owner-id`, `instance-match-criteria`, `tag:K`, `tag-key`).
   * Throws AwsApiError kind NotFound when a named id does not exist (as EC2 does).
   */
  describeCapacityReservations(input: { ids?: string[]; filters?: Filter[] }): Promise<CapacityReservationInfo[]>;
  createLaunchTemplate(input: LaunchTemplateInput): Promise<LaunchTemplateInfo>;
  describeLaunchTemplates(input: { names?: string[]; filters?: Filter[] }): Promise<LaunchTemplateInfo[]>;
  /** Throws AwsApiError kind NotFound when no template has that name. */
  deleteLaunchTemplate(name: string): Promise<void>;
  createFleet(request: FleetRequest): Promise<FleetResult>;
  describeInstances(input: { instanceIds?: string[]; filters?: Filter[] }): Promise<InstanceInfo[]>;
  terminateInstances(instanceIds: string[]): Promise<void>;
  createTags(input: { resourceIds: string[]; tags: Tags }): Promise<void>;
}

/** The SSM operation AMI aliases resolve through. */
export interface SsmApi {
  /** Values of the parameters that exist; missing names are simply absent from the result. */
  getParameters(names: string[]): Promise<Record<string, string>>;
}

/** The IAM operations behind `spec.role` (an instance profile Tenon creates) and `spec.instanceProfile`. */
export interface IamApi {
  /** Undefined when no such profile exists. */
  getInstanceProfile(name: string): Promise<InstanceProfileInfo | undefined>;
  createInstanceProfile(input: { name: string; path?: string; tags: Tags }): Promise<InstanceProfileInfo>;
  addRoleToInstanceProfile(input: { name: string; role: string }): Promise<void>;
  removeRoleFromInstanceProfile(input: { name: string; role: string }): Promise<void>;
  deleteInstanceProfile(name: string): Promise<void>;
}

/** The Pricing operation (GetProducts) behind on-demand prices. */
export interface PricingApi {
  /** Hourly on-demand Linux prices (shared tenancy, no pre-installed software) by instance type. */
  getOnDemandPrices(region: string): Promise<Record<string, number>>;
}

/** Everything the AWS provider needs from AWS. */
export interface AwsPort extends Ec2Api, SsmApi, IamApi, PricingApi {
  /** The region the port talks to. */
  readonly region: string;
}
