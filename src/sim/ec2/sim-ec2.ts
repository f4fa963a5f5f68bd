/**
 * SimEc2: a stateful, deterministic simulated EC2 account implementing the AWS port, so the real AWS
 * provider runs on it unchanged. Fault injection (throttling, insufficient capacity, launch latency,
 * instance loss) and the instance view (for simulated kubelets) are its extra methods.
 */
import type {
  AwsPort,
  CapacityReservationInfo,
  Filter,
  FleetRequest,
  FleetResult,
  ImageInfo,
  ImageQuery,
  InstanceInfo,
  InstanceTypeInfo,
  InstanceTypeOffering,
  LaunchTemplateInfo,
  LaunchTemplateInput,
  PlacementGroupInfo,
  PlacementGroupStrategy,
  SecurityGroupInfo,
  SpotPrice,
  SubnetInfo,
  Tags,
} from '../../providers/aws/ports/index.js';
import { AwsApiError } from '../../providers/aws/ports/index.js';
import { SimAccountId, type SimEc2Options, type SimLaunchTemplate } from './account.js';
import type { SimCapacityReservationInput } from './capacity-reservations.js';
import { fleetResult, placeFleet } from './fleet.js';
import { filterAttributes, toInstanceInfo, type SimInstance, type SimInstanceEvent } from './instances.js';
import { launchInstance } from './launch-instance.js';
import { matchesFilters } from './filters.js';
import { unsupportedOverride } from './launch-checks.js';
import type { PoolKey } from './market.js';
import type { SimAction } from './rate-limits.js';
import { SimIamSsm } from './sim-iam-ssm.js';

/** Throttles and calls per action so far. */
export interface SimApiStats {
  calls: Partial<Record<SimAction, number>>;
  throttled: Partial<Record<SimAction, number>>;
  totalThrottled: number;
}

/** The simulated EC2 account (with IAM, SSM and Pricing) behind the AWS port. */
export class SimEc2 extends SimIamSsm implements AwsPort {
  /** Private addresses given out so far (never reused, as no two instances may share a node name). */
  private readonly usedAddresses = new Set<string>();

  /** Creates the simulated account's EC2. */
  constructor(options: SimEc2Options) {
    super(options);
  }

  // ---- EC2 port operations -------------------------------------------------------------------------------

  /** Subnets matching the filters (`subnet-id`, `vpc-id`, `availability-zone`, `tag:K`, `tag-key`). */
  async describeSubnets(filters: Filter[]): Promise<SubnetInfo[]> {
    this.account.call('DescribeSubnets');
    return this.account.network.subnets
      .filter((s) =>
        matchesFilters(
          { tags: s.tags, attributes: { 'subnet-id': s.subnetId, 'vpc-id': s.vpcId, 'availability-zone': s.zone } },
          filters,
        ),
      )
      .map((s) => ({ ...s, tags: { ...s.tags } }));
  }

  /** Security groups matching the filters (`group-id`, `group-name`, `vpc-id`, tags). */
  async describeSecurityGroups(filters: Filter[]): Promise<SecurityGroupInfo[]> {
    this.account.call('DescribeSecurityGroups');
    return this.account.network.securityGroups
      .filter((g) =>
        matchesFilters(
          { tags: g.tags, attributes: { 'group-id': g.groupId, 'group-name': g.groupName, 'vpc-id': g.vpcId } },
          filters,
        ),
      )
      .map((g) => ({ ...g, tags: { ...g.tags } }));
  }

  /** Images by ids, owners (`self`, `amazon`, account ids) and filters (`name`, `image-id`, `architecture`, tags). */
  async describeImages(query: ImageQuery): Promise<ImageInfo[]> {
    this.account.call('DescribeImages');
    const owners = query.owners?.map((o) => (o === 'self' ? SimAccountId : o));
    return this.account.images
      .filter((i) => query.imageIds === undefined || query.imageIds.includes(i.imageId))
      .filter(
        (i) =>
          owners === undefined ||
          owners.includes(i.ownerId) ||
          (i.ownerAlias !== undefined && owners.includes(i.ownerAlias)),
      )
      .filter((i) =>
        matchesFilters(
          {
            tags: i.tags,
            attributes: {
              name: i.name,
              'image-id': i.imageId,
              architecture: i.architecture,
              state: i.state,
              'owner-id': i.ownerId,
            },
          },
          query.filters ?? [],
        ),
      )
      .map(({ ownerAlias: _alias, ...i }) => ({ ...i, tags: { ...i.tags } }));
  }

  /** Every catalog type. */
  async describeInstanceTypes(): Promise<InstanceTypeInfo[]> {
    this.account.call('DescribeInstanceTypes');
    return this.account.instanceTypeInfos();
  }

  /** Which zones offer which types (seeded). */
  async describeInstanceTypeOfferings(): Promise<InstanceTypeOffering[]> {
    this.account.call('DescribeInstanceTypeOfferings');
    const out: InstanceTypeOffering[] = [];
    for (const e of this.account.catalog) {
      this.account.zones.forEach((zone, i) => {
        if (this.account.market.offered(e.name, zone, i)) out.push({ instanceType: e.name, zone });
      });
    }
    return out;
  }

  /** The current spot price point of every (type, zone) offered, stamped with the start of the hour. */
  async describeSpotPriceHistory(input: { startTime: Date; instanceTypes?: string[] }): Promise<SpotPrice[]> {
    this.account.call('DescribeSpotPriceHistory');
    const now = this.account.clock.now();
    const timestamp = new Date(Math.floor(now / 3_600_000) * 3_600_000);
    const out: SpotPrice[] = [];
    for (const e of this.account.catalog) {
      if (input.instanceTypes && !input.instanceTypes.includes(e.name)) continue;
      this.account.zones.forEach((zone, i) => {
        const price = this.account.market.offered(e.name, zone, i)
          ? this.account.market.spotPrice(e.name, zone, now)
          : undefined;
        if (price !== undefined) out.push({ instanceType: e.name, zone, price, timestamp });
      });
    }
    return out;
  }

  /** Available placement groups by ids or names. */
  async describePlacementGroups(input: { groupIds?: string[]; groupNames?: string[] }): Promise<PlacementGroupInfo[]> {
    this.account.call('DescribePlacementGroups');
    return [...this.account.placementGroups.values()]
      .filter((g) => g.state === 'available')
      .filter((g) => input.groupIds === undefined || input.groupIds.includes(g.groupId))
      .filter((g) => input.groupNames === undefined || input.groupNames.includes(g.groupName))
      .map((g) => ({ ...g }));
  }

  /** Capacity reservations by ids (NotFound for an unknown id) and filters. */
  async describeCapacityReservations(input: {
    ids?: string[];
    filters?: Filter[];
  }): Promise<CapacityReservationInfo[]> {
    this.account.call('DescribeCapacityReservations');
    return this.account.capacityReservations.describe(input, this.account.clock.now());
  }

  /** Stores a launch template; AlreadyExists when the name is taken. */
  async createLaunchTemplate(input: LaunchTemplateInput): Promise<LaunchTemplateInfo> {
    this.account.call('CreateLaunchTemplate');
    if (this.account.launchTemplates.has(input.name)) {
      throw new AwsApiError(
        'InvalidLaunchTemplateName.AlreadyExistsException',
        `Launch template name already in use: ${input.name}`,
      );
    }
    if (!this.account.images.some((i) => i.imageId === input.imageId))
      throw new AwsApiError('InvalidAMIID.NotFound', `The image id '[${input.imageId}]' does not exist`);
    // EC2 limits userData to 16 KiB before base64 encoding.
    if (Buffer.byteLength(input.userData, 'utf8') > 16 * 1024)
      throw new AwsApiError('InvalidUserData.Malformed', 'User data is limited to 16384 bytes.');
    const t: SimLaunchTemplate = {
      ...structuredClone(input),
      launchTemplateId: this.account.newId('lt'),
      createdAt: this.account.clock.now(),
    };
    this.account.launchTemplates.set(input.name, t);
    return { launchTemplateId: t.launchTemplateId, name: t.name, tags: { ...t.tags } };
  }

  /** Templates by names (NotFound when a named one is missing, as EC2 does) and filters. */
  async describeLaunchTemplates(input: { names?: string[]; filters?: Filter[] }): Promise<LaunchTemplateInfo[]> {
    this.account.call('DescribeLaunchTemplates');
    for (const n of input.names ?? []) {
      if (!this.account.launchTemplates.has(n))
        throw new AwsApiError(
          'InvalidLaunchTemplateName.NotFoundException',
          `At least one of the launch templates specified in the request does not exist.`,
        );
    }
    return [...this.account.launchTemplates.values()]
      .filter((t) => input.names === undefined || input.names.includes(t.name))
      .filter((t) =>
        matchesFilters({ tags: t.tags, attributes: { 'launch-template-name': t.name } }, input.filters ?? []),
      )
      .map((t) => ({ launchTemplateId: t.launchTemplateId, name: t.name, tags: { ...t.tags } }));
  }

  /** Deletes a template; NotFound when there is none. */
  async deleteLaunchTemplate(name: string): Promise<void> {
    this.account.call('DeleteLaunchTemplate');
    if (!this.account.launchTemplates.delete(name)) {
      throw new AwsApiError(
        'InvalidLaunchTemplateName.NotFoundException',
        `The specified launch template, with template name ${name}, does not exist.`,
      );
    }
  }

  /** CreateFleet of type instant: places the target capacity on overrides by strategy, errors per failed override. */
  async createFleet(request: FleetRequest): Promise<FleetResult> {
    this.account.call('CreateFleet');
    if (request.overrides.length === 0)
      throw new AwsApiError('InvalidParameterValue', 'CreateFleet needs at least one override');
    for (const o of request.overrides) {
      if (!this.account.launchTemplates.has(o.launchTemplateName)) {
        throw new AwsApiError(
          'InvalidLaunchTemplateName.NotFoundException',
          `The specified launch template, with template name ${o.launchTemplateName}, does not exist.`,
        );
      }
    }
    const now = this.account.clock.now();
    const { placements, errors } = placeFleet(
      {
        market: this.account.market,
        now,
        unsupported: (o) => unsupportedOverride(this.account, o, request),
        reservation: (o) =>
          this.account.capacityReservations.slotFor({
            template: this.account.launchTemplates.get(o.launchTemplateName),
            instanceType: o.instanceType,
            zone: o.zone,
            onDemand: request.capacityType === 'on-demand',
            now,
          }),
      },
      request,
    );
    const placed = placements.map((placement) => ({
      placement,
      instanceId: launchInstance({ account: this.account, usedAddresses: this.usedAddresses, placement, request })
        .instanceId,
    }));
    return fleetResult(request, placed, errors);
  }

  /** Instances by ids (NotFound for an unknown id, as EC2 does) and filters. */
  async describeInstances(input: { instanceIds?: string[]; filters?: Filter[] }): Promise<InstanceInfo[]> {
    this.account.call('DescribeInstances');
    const ids = input.instanceIds;
    for (const id of ids ?? []) {
      if (!this.account.instances.get(id))
        throw new AwsApiError('InvalidInstanceID.NotFound', `The instance ID '${id}' does not exist`);
    }
    return this.account.instances
      .all()
      .filter((i) => ids === undefined || ids.includes(i.instanceId))
      .filter((i) => matchesFilters({ tags: i.tags, attributes: filterAttributes(i) }, input.filters ?? []))
      .map(toInstanceInfo);
  }

  /** Terminates instances (user-initiated). */
  async terminateInstances(instanceIds: string[]): Promise<void> {
    this.account.call('TerminateInstances');
    const found = instanceIds.map((id) => this.account.instances.get(id));
    if (found.some((i) => i === undefined))
      throw new AwsApiError('InvalidInstanceID.NotFound', `The instance IDs '${instanceIds.join(', ')}' do not exist`);
    for (const i of found) if (i) this.account.instances.terminate(i, 'Client.UserInitiatedShutdown');
  }

  /** Tags instances (other resource ids are accepted and ignored). */
  async createTags(input: { resourceIds: string[]; tags: Tags }): Promise<void> {
    this.account.call('CreateTags');
    for (const id of input.resourceIds) {
      const i = this.account.instances.get(id);
      if (i) this.account.instances.tag(i, input.tags);
      else if (id.startsWith('i-'))
        throw new AwsApiError('InvalidInstanceID.NotFound', `The instance ID '${id}' does not exist`);
    }
  }

  // ---- instance view (for simulated kubelets, the playground and tests) ---------------------------------------

  /** Every visible instance with what it was launched with (copies). */
  listInstances(filter: { states?: SimInstance['state'][] } = {}): SimInstance[] {
    return this.account.instances
      .all()
      .filter((i) => filter.states === undefined || filter.states.includes(i.state))
      .map((i) => structuredClone(i));
  }

  /** One instance with what it was launched with, or undefined. */
  getInstance(instanceId: string): SimInstance | undefined {
    const i = this.account.instances.get(instanceId);
    return i ? structuredClone(i) : undefined;
  }

  /** Calls `listener` on every launch, state change and tag change; returns the unsubscribe function. */
  onInstanceEvent(listener: (e: SimInstanceEvent) => void): () => void {
    return this.account.instances.subscribe((e) => listener({ type: e.type, instance: structuredClone(e.instance) }));
  }

  /** Names of the launch templates that exist. */
  launchTemplateNames(): string[] {
    return [...this.account.launchTemplates.keys()];
  }

  /** API calls and throttles so far. */
  apiStats(): SimApiStats {
    return {
      calls: Object.fromEntries(this.account.limiter.calls),
      throttled: Object.fromEntries(this.account.limiter.throttled),
      totalThrottled: this.account.limiter.totalThrottled(),
    };
  }

  // ---- fault injection -------------------------------------------------------------------------------------

  /** Throttles the next `times` calls of `action` (or of every action) with RequestLimitExceeded. */
  throttleNext(action: SimAction | 'all', times = 1): void {
    this.account.forcedThrottles.set(action, (this.account.forcedThrottles.get(action) ?? 0) + times);
  }

  /** Sets how many more instances a pool can launch; 0 means insufficient capacity for that offering. */
  setCapacity(pool: PoolKey, count: number): void {
    this.account.market.setAvailable(pool, count);
  }

  /** Instances a pool can still launch. */
  capacity(pool: PoolKey): number {
    return this.account.market.available(pool);
  }

  /** Sets how long new instances stay pending before running. */
  setLaunchLatency(ms: number): void {
    this.account.instances.timings.launchLatencyMs = ms;
  }

  /** Loses an instance (hardware failure, spot interruption): it shuts down and terminates on its own. */
  loseInstance(instanceId: string, reason = 'Server.InternalError'): void {
    const i = this.account.instances.get(instanceId);
    if (!i) throw new Error(`no instance ${instanceId}`);
    this.account.instances.terminate(i, reason);
  }

  /** Publishes a new AMI release (aliases `@latest` move to it); returns its name. */
  publishAmiRelease(release?: string): string {
    return this.account.publishAmiRelease(release);
  }

  /** Creates an available placement group; returns its id. */
  createPlacementGroup(input: { name: string; strategy: PlacementGroupStrategy; partitionCount?: number }): string {
    const groupId = this.account.newId('pg');
    this.account.placementGroups.set(groupId, {
      groupId,
      groupName: input.name,
      strategy: input.strategy,
      ...(input.strategy === 'partition' ? { partitionCount: input.partitionCount ?? 2 } : {}),
      state: 'available',
    });
    return groupId;
  }

  /** Creates an active capacity reservation with every slot free; returns its id. */
  createCapacityReservation(input: SimCapacityReservationInput): string {
    const id = `cr-${this.account.random.hex(17)}`;
    this.account.capacityReservations.create(id, SimAccountId, input);
    return id;
  }

  /** Takes free slots of a reservation, as launches from outside the cluster would. */
  occupyCapacityReservation(id: string, count: number): void {
    this.account.capacityReservations.occupy(id, count);
  }

  /** Cancels a capacity reservation: no further launches into it; its instances run on as on-demand instances. */
  cancelCapacityReservation(id: string): void {
    this.account.capacityReservations.cancel(id);
    for (const i of this.account.instances.all()) if (i.capacityReservationId === id) delete i.capacityReservationId;
  }

  /** Adds an IAM role (so an EC2NodeClass `role` can be used). */
  addRole(name: string): void {
    this.account.roles.add(name);
  }
}
