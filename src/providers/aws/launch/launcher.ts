/**
 * Launches one instance for a planned NodeClaim: launch templates per AMI and max-pods group (and per capacity
 * reservation for a reserved launch, whose template targets it), one CreateFleet override per type × zone subnet,
 * concurrent identical fleets merged into one call, insufficient-capacity errors fed to the unavailable-offerings
 * cache and full reservations (ReservationCapacityExceeded) to the reservation counts.
 */
import {
  Labels,
  type CapacityReservationStatus,
  type CapacityType,
  type EC2NodeClass,
  type NodeSelectorRequirementWithMinValues,
} from '../../../api/index.js';
import type { Clock } from '../../../clock/index.js';
import {
  CreateError,
  InsufficientCapacityError,
  type NodeClaim,
  type OfferingRef,
} from '../../../cloudprovider/index.js';
import { Requirements } from '../../../scheduling/index.js';
import { InvalidUserDataError, type ClusterInfo, type UserDataInput } from '../bootstrap/index.js';
import type { UnavailableOfferings } from '../cache/unavailable-offerings.js';
import type { CapacityReservationProvider } from '../capacityreservation/provider.js';
import { partitionOf } from '../nodeclass/placement-group.js';
import { amiFamilyOf, blockDevicesOf, kubeletOf, metadataOptionsOf, specOf } from '../nodeclass/settings.js';
import {
  AwsApiError,
  classifyAwsErrorCode,
  type AwsPort,
  type FleetInstance,
  type FleetOverride,
  type FleetRequest,
  type FleetResult,
  type LaunchCapacityReservation,
  type PlacementGroupInfo,
} from '../ports/index.js';
import { Batcher } from './batcher.js';
import { LaunchTemplateClusterTag, type LaunchTemplateProvider } from './launch-templates.js';
import type { LaunchCandidate } from './plan.js';
import { launchTags } from './tags.js';
import { templateOptions } from './template-options.js';

/** What a launch produced. */
export interface Launched {
  instance: FleetInstance;
  candidate: LaunchCandidate;
  imageId: string;
  placementGroup?: PlacementGroupInfo;
  /** The partition of a partition placement group the instance launched into, when one was chosen. */
  partition?: number;
  /** The capacity reservation the instance launched into (a reserved launch). */
  reservation?: CapacityReservationStatus;
}

/** Dependencies of the launcher. */
export interface LauncherOptions {
  port: AwsPort;
  clock: Clock;
  cluster: ClusterInfo;
  templates: LaunchTemplateProvider;
  unavailable: UnavailableOfferings;
  userDataGenerator: (input: UserDataInput) => string;
  /** CreateFleet batching window (clock ms); 0 batches the calls of one event-loop turn. */
  fleetBatchWindowMs: number;
  /**
   * The reservation counts (ReservedCapacity on, Karpenter's targeted launch mode): a reserved launch's template
   * targets its reservation, every other template opts out of open reservations. Absent: templates say nothing.
   */
  reservations?: CapacityReservationProvider;
}

/** Launches instances through CreateFleet. */
export class Launcher {
  private readonly o: LauncherOptions;
  private readonly fleets: Batcher<FleetRequest, FleetResult>;

  constructor(options: LauncherOptions) {
    this.o = options;
    this.fleets = new Batcher<FleetRequest, FleetResult>({
      key: (r) => JSON.stringify(r),
      run: (requests) => this.runFleet(requests),
      clock: options.clock,
      windowMs: options.fleetBatchWindowMs,
      maxSize: 1000,
    });
  }

  /** Launches one instance of the candidates, of `capacityType`. */
  async launch(input: {
    nodeClaim: NodeClaim;
    nodeClass: EC2NodeClass;
    capacityType: CapacityType;
    candidates: LaunchCandidate[];
    /** The class's placement group (instances launch into it). */
    placementGroup?: PlacementGroupInfo;
  }): Promise<Launched> {
    const { nodeClaim, nodeClass, capacityType, candidates } = input;
    const ct = capacityType === 'spot' ? 'spot' : 'on-demand';
    const placement = placementOf(nodeClaim, input.placementGroup);
    const reserved = capacityType === 'reserved';
    const built = await this.overrides({ nodeClaim, nodeClass, candidates, reserved, ...placement });
    const request: FleetRequest = {
      // A reservation's instances are on-demand instances (a capacity block's are bought as such).
      capacityType: ct,
      allocationStrategy: ct === 'spot' ? 'price-capacity-optimized' : 'lowest-price',
      overrides: built.overrides,
      tags: launchTags(this.o.cluster.name, nodeClass, nodeClaim),
    };
    const result = await this.createFleet(request, built.templateNames);
    this.recordShortages(result, reserved ? built.reservationByOffering : undefined, ct);
    const instance = result.instances[0];
    if (!instance) {
      const tried = uniqueOfferings(built.overrides, capacityType);
      const codes = [...new Set(result.errors.map((e) => e.code))].join(', ') || 'no capacity';
      throw new InsufficientCapacityError(
        `every offering tried for NodeClaim ${nodeClaim.metadata.name} failed (${codes}): ${tried.length} offerings of ${candidates.length} instance types`,
        tried,
      );
    }
    const candidate = candidates.find((c) => c.type.info.instanceType === instance.instanceType);
    const imageId = built.imageByType.get(instance.instanceType);
    if (!candidate || imageId === undefined)
      throw new CreateError(
        'LaunchFailed',
        `CreateFleet returned an instance of unrequested type ${instance.instanceType}`,
      );
    const reservationId =
      instance.capacityReservationId ??
      (reserved ? built.reservationByOffering.get(`${instance.instanceType}/${instance.zone}`) : undefined);
    const reservation = (nodeClass.status?.capacityReservations ?? []).find((r) => r.id === reservationId);
    if (reservationId !== undefined) this.o.reservations?.markLaunched(reservationId);
    return { instance, candidate, imageId, ...placement, ...(reservation ? { reservation } : {}) };
  }

  // Pools without capacity go to the unavailable offerings; a full reservation's count drops to zero instead.
  private recordShortages(
    result: FleetResult,
    reservationByOffering: ReadonlyMap<string, string> | undefined,
    ct: CapacityType,
  ): void {
    for (const e of result.errors) {
      if (classifyAwsErrorCode(e.code) !== 'InsufficientCapacity') continue;
      const reservationId = reservationByOffering?.get(`${e.instanceType}/${e.zone}`);
      if (reservationId !== undefined) this.o.reservations?.markExhausted(reservationId);
      else if (reservationByOffering === undefined) this.o.unavailable.mark(e.instanceType, e.zone, ct);
    }
  }

  private async createFleet(request: FleetRequest, templateNames: string[]): Promise<FleetResult> {
    try {
      return await this.fleets.submit(request);
    } catch (e: unknown) {
      if (!AwsApiError.is(e)) throw e;
      // A template deleted behind our back: forget it so the next launch recreates it.
      if (e.code.startsWith('InvalidLaunchTemplateName')) for (const n of templateNames) this.o.templates.invalidate(n);
      throw new CreateError(e.kind === 'Throttled' ? 'Throttled' : 'LaunchFailed', `CreateFleet failed: ${e.message}`);
    }
  }

  private async runFleet(requests: FleetRequest[]): Promise<FleetResult[]> {
    const first = requests[0];
    if (!first) return [];
    const merged = await this.o.port.createFleet({ ...first, targetCapacity: requests.length });
    // Instances go to the callers in order; those left without one share the fleet's errors.
    return requests.map((_, i) => {
      const instance = merged.instances[i];
      return { instances: instance ? [instance] : [], errors: merged.errors };
    });
  }

  private async overrides(input: TemplateContext & { candidates: LaunchCandidate[]; reserved: boolean }): Promise<{
    overrides: FleetOverride[];
    templateNames: string[];
    imageByType: Map<string, string>;
    /** `type/zone` → the reservation a reserved launch's override targets. */
    reservationByOffering: Map<string, string>;
  }> {
    const { nodeClaim, nodeClass, candidates } = input;
    const wantsEfa = wantsEfaOf(nodeClaim);
    const amis = amisOf(nodeClass);
    const subnetByZone = subnetsByZone(nodeClass);
    const templateByGroup = new Map<string, Promise<string>>();
    const overrides: FleetOverride[] = [];
    const imageByType = new Map<string, string>();
    const reservationByOffering = new Map<string, string>();
    for (const c of candidates) {
      const ami = amis.find((a) => a.reqs.matchesLabels(c.type.instanceType.labels));
      if (!ami) continue;
      imageByType.set(c.type.info.instanceType, ami.id);
      for (const o of c.offerings) {
        const t = {
          imageId: ami.id,
          maxPods: c.type.maxPods,
          efaCount: wantsEfa ? efaOf(c) : 0,
          reservation: this.reservationSpec(input.reserved, o.reservationId, nodeClass),
        };
        const subnetId = subnetByZone.get(o.zone);
        const name = subnetId === undefined ? undefined : await this.templateOnce(input, t, templateByGroup);
        if (name === undefined || subnetId === undefined) continue;
        const instanceType = c.type.info.instanceType;
        overrides.push({ launchTemplateName: name, instanceType, subnetId, zone: o.zone });
        if (o.reservationId !== undefined) reservationByOffering.set(`${instanceType}/${o.zone}`, o.reservationId);
      }
    }
    if (overrides.length === 0)
      throw new CreateError(
        'LaunchFailed',
        `no AMI or subnet of EC2NodeClass ${nodeClass.metadata?.name ?? ''} fits the candidate instance types`,
      );
    return {
      overrides,
      templateNames: [...new Set(overrides.map((o) => o.launchTemplateName))],
      imageByType,
      reservationByOffering,
    };
  }

  // One template per AMI, max pods, EFA count and reservation (each is baked into the template), made once per launch.
  private templateOnce(
    context: TemplateContext,
    t: TemplateSettings,
    made: Map<string, Promise<string>>,
  ): Promise<string> {
    const group = JSON.stringify(t);
    const existing = made.get(group);
    if (existing) return existing;
    const p = this.template(context, t);
    made.set(group, p);
    return p;
  }

  /**
   * How the template uses reservations in Karpenter's targeted mode: a reserved launch targets its reservation (as a
   * capacity block or interruptible reservation when it is one); any other launch opts out of open reservations.
   */
  private reservationSpec(
    reserved: boolean,
    reservationId: string | undefined,
    nodeClass: EC2NodeClass,
  ): LaunchCapacityReservation | undefined {
    if (!this.o.reservations) return undefined;
    if (!reserved || reservationId === undefined) return { preference: 'none' };
    const r = (nodeClass.status?.capacityReservations ?? []).find((x) => x.id === reservationId);
    const marketType =
      r?.reservationType === 'capacity-block'
        ? 'capacity-block'
        : r?.interruptible === true
          ? 'interruptible-capacity-reservation'
          : undefined;
    return { preference: 'capacity-reservations-only', reservationId, ...(marketType ? { marketType } : {}) };
  }

  /** The userData to launch with; a CreateError when it cannot be used (over EC2's size limit). */
  private userData(nodeClaim: NodeClaim, nodeClass: EC2NodeClass, maxPods: number): string {
    const spec = specOf(nodeClass);
    try {
      return this.o.userDataGenerator({
        amiFamily: amiFamilyOf(nodeClass),
        userData: spec.userData,
        cluster: this.o.cluster,
        labels: nodeClaim.metadata.labels ?? {},
        taints: nodeClaim.spec.taints ?? [],
        startupTaints: nodeClaim.spec.startupTaints ?? [],
        kubelet: kubeletOf(nodeClass),
        maxPods,
        ...(spec.instanceStorePolicy ? { instanceStorePolicy: spec.instanceStorePolicy } : {}),
      });
    } catch (e: unknown) {
      // The NodeClaim's labels and taints can take userData past EC2's limit where validation's did not.
      if (InvalidUserDataError.is(e))
        throw new CreateError('InvalidUserData', `EC2NodeClass ${nodeClass.metadata?.name ?? ''}: ${e.message}`);
      throw e;
    }
  }

  private template(context: TemplateContext, t: TemplateSettings): Promise<string> {
    const { nodeClaim, nodeClass, placementGroup, partition } = context;
    const { imageId, maxPods } = t;
    const spec = specOf(nodeClass);
    const securityGroupIds = (nodeClass.status?.securityGroups ?? []).map((g) => g.id);
    const userData = this.userData(nodeClaim, nodeClass, maxPods);
    return this.o.templates.ensure({
      imageId,
      userData,
      securityGroupIds,
      instanceProfileName: nodeClass.status?.instanceProfile ?? '',
      blockDeviceMappings: blockDevicesOf(nodeClass),
      metadataOptions: metadataOptionsOf(nodeClass),
      tags: {
        ...launchTags(this.o.cluster.name, nodeClass, nodeClaim),
        [LaunchTemplateClusterTag]: this.o.cluster.name,
      },
      detailedMonitoring: spec.detailedMonitoring ?? false,
      ...templateOptions({
        nodeClass,
        securityGroupIds,
        efaCount: t.efaCount,
        ...(placementGroup ? { placementGroup } : {}),
        ...(partition === undefined ? {} : { partition }),
      }),
      ...(t.reservation ? { capacityReservation: t.reservation } : {}),
    });
  }
}

/** The placement group and partition of a launch. */
interface Placement {
  placementGroup?: PlacementGroupInfo;
  partition?: number;
}

/** What differs between the templates of one launch. */
interface TemplateSettings {
  imageId: string;
  maxPods: number;
  efaCount: number;
  reservation: LaunchCapacityReservation | undefined;
}

/** What every template of one launch shares. */
interface TemplateContext extends Placement {
  nodeClaim: NodeClaim;
  nodeClass: EC2NodeClass;
}

// A partition group's instance goes to the lowest partition the NodeClaim allows (Karpenter's choice).
function placementOf(nodeClaim: NodeClaim, placementGroup: PlacementGroupInfo | undefined): Placement {
  if (!placementGroup) return {};
  if (placementGroup.strategy !== 'partition') return { placementGroup };
  const allowed = Requirements.fromSelector(nodeClaim.spec.requirements).get(Labels.placementGroupPartition);
  const partition = allowed && !allowed.complement ? partitionOf([...allowed.values]) : undefined;
  return { placementGroup, ...(partition === undefined ? {} : { partition }) };
}

/** The EFA device resource. */
const EfaResource = 'vpc.amazonaws.com/efa';

const efaOf = (c: LaunchCandidate): number => c.type.allocatable[EfaResource] ?? 0;

const wantsEfaOf = (nodeClaim: NodeClaim): boolean =>
  (nodeClaim.spec.resources?.requests ?? {})[EfaResource] !== undefined;

function amisOf(nodeClass: EC2NodeClass): Array<{ id: string; reqs: Requirements }> {
  return (nodeClass.status?.amis ?? []).map((a) => ({
    id: a.id,
    reqs: Requirements.fromSelector(a.requirements as NodeSelectorRequirementWithMinValues[]),
  }));
}

// Status lists subnets with the most free addresses first: the first of each zone is the one to use.
function subnetsByZone(nodeClass: EC2NodeClass): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of nodeClass.status?.subnets ?? []) if (!out.has(s.zone)) out.set(s.zone, s.id);
  return out;
}

function uniqueOfferings(overrides: FleetOverride[], capacityType: CapacityType): OfferingRef[] {
  const seen = new Map<string, OfferingRef>();
  for (const o of overrides)
    seen.set(`${o.instanceType}/${o.zone}`, { instanceType: o.instanceType, zone: o.zone, capacityType });
  return [...seen.values()];
}
