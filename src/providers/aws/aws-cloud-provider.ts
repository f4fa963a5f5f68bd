/**
 * AwsCloudProvider: Karpenter's AWS provider behaviour behind Tenon's CloudProvider interface, reaching
 * AWS only through the AwsPort (the SDK adapter in production, the simulated EC2 in the playground).
 */
import { ConditionTypes, Labels, type EC2NodeClass, ConditionReasons } from '../../api/index.js';
import {
  CreateError,
  NodeClaimNotFoundError,
  NodeClassNotReadyError,
  type CloudProvider,
  type DriftReason,
  type InstanceType,
  type NodeClaim,
  type NodeClassReadiness,
  type NodePool,
  type RepairPolicy,
} from '../../cloudprovider/index.js';
import { UnavailableOfferings } from './cache/unavailable-offerings.js';
import { CapacityReservationProvider } from './capacityreservation/provider.js';
import { driftOf, placementGroupDrift } from './drift.js';
import { instanceNodeClaim, launchedNodeClaim } from './instance/nodeclaims.js';
import { instanceIdOf } from './instance/provider-id.js';
import { InstanceTypesProvider, type ResolvedInstanceType } from './instancetype/instance-types-provider.js';
import { Batcher } from './launch/batcher.js';
import { InstanceTagger } from './launch/instance-tagger.js';
import { LaunchTemplateProvider } from './launch/launch-templates.js';
import { Launcher } from './launch/launcher.js';
import { planLaunch } from './launch/plan.js';
import { clusterTagKey, nodeClaimTags } from './launch/tags.js';
import { PlacementGroupProvider } from './nodeclass/placement-group.js';
import { clusterInfo, type AwsCloudProviderOptions } from './options.js';
import { AwsApiError, type InstanceInfo } from './ports/index.js';
import { PricingProvider } from './pricing/pricing-provider.js';
import { awsRepairPolicies } from './repair-policies.js';

const liveStates = ['pending', 'running', 'stopping', 'stopped', 'shutting-down'];

/** The AWS cloud provider. */
export class AwsCloudProvider implements CloudProvider {
  readonly name = 'aws';
  private readonly o: AwsCloudProviderOptions;
  /** Offerings that recently had no capacity (3 minutes). */
  readonly unavailableOfferings: UnavailableOfferings;
  readonly instanceTypes: InstanceTypesProvider;
  readonly launchTemplates: LaunchTemplateProvider;
  readonly tagger: InstanceTagger;
  /** Placement groups of EC2NodeClasses (shared with the EC2NodeClass resolver). */
  readonly placementGroups: PlacementGroupProvider;
  /** Capacity reservations and what each can still take (shared with the EC2NodeClass resolver). */
  readonly capacityReservations: CapacityReservationProvider;
  private readonly launcher: Launcher;
  private readonly describes: Batcher<string, InstanceInfo | undefined>;

  constructor(options: AwsCloudProviderOptions) {
    this.o = options;
    const { port, clock } = options;
    this.unavailableOfferings = new UnavailableOfferings(clock);
    this.placementGroups = new PlacementGroupProvider({ port, clock });
    this.capacityReservations = new CapacityReservationProvider({ port, clock });
    const reservations = options.reservedCapacity === false ? {} : { reservations: this.capacityReservations };
    this.instanceTypes = new InstanceTypesProvider({
      port,
      clock,
      placementGroups: this.placementGroups,
      ...reservations,
      pricing: new PricingProvider({ port, clock, isolatedVpc: options.isolatedVpc }),
      unavailable: this.unavailableOfferings,
      settings: {
        vmMemoryOverheadPercent: options.vmMemoryOverheadPercent ?? 0.075,
        reservedEnis: options.reservedEnis ?? 0,
      },
    });
    this.launchTemplates = new LaunchTemplateProvider({ port, clock });
    this.tagger = new InstanceTagger({ port, clock });
    this.launcher = new Launcher({
      port,
      clock,
      cluster: clusterInfo(options.cluster),
      templates: this.launchTemplates,
      unavailable: this.unavailableOfferings,
      userDataGenerator: options.userDataGenerator,
      fleetBatchWindowMs: options.fleetBatchWindowMs ?? 0,
      ...reservations,
    });
    // Concurrent Get calls become one DescribeInstances (filtered, so one unknown id does not fail the rest).
    this.describes = new Batcher<string, InstanceInfo | undefined>({
      key: () => 'describe',
      run: async (ids) => {
        const found = await port.describeInstances({ filters: [{ name: 'instance-id', values: [...new Set(ids)] }] });
        return ids.map((id) => found.find((i) => i.instanceId === id));
      },
      clock,
      windowMs: 0,
      maxSize: 500,
    });
  }

  /** Launches the cheapest offering the NodeClaim allows; see CloudProvider.create for the error contract. */
  async create(nodeClaim: NodeClaim): Promise<NodeClaim> {
    const nodeClass = this.readyNodeClass(nodeClaim.spec.nodeClassRef.name);
    const types = await this.instanceTypes.list(nodeClass);
    const plan = planLaunch(nodeClaim, types);
    if (!plan.ok) throw new CreateError('InstanceTypesNotFound', plan.message);
    const placementGroup = await this.placementGroups.get(nodeClass);
    const launched = await this.launcher.launch({
      nodeClaim,
      nodeClass,
      capacityType: plan.capacityType,
      candidates: plan.candidates,
      ...(placementGroup ? { placementGroup } : {}),
    });
    this.tagger.enqueue(launched.instance.instanceId, nodeClaimTags(nodeClaim));
    return launchedNodeClaim(nodeClaim, nodeClass, launched);
  }

  /** Terminates the instance; NodeClaimNotFoundError when it is already gone or terminating. */
  async delete(nodeClaim: NodeClaim): Promise<void> {
    const providerID = nodeClaim.status?.providerID ?? '';
    const instance = await this.describe(providerID);
    if (instance.state === 'shutting-down')
      throw new NodeClaimNotFoundError(providerID, `instance ${instance.instanceId} is already terminating`);
    try {
      await this.o.port.terminateInstances([instance.instanceId]);
    } catch (e: unknown) {
      if (AwsApiError.isKind(e, 'NotFound')) throw new NodeClaimNotFoundError(providerID);
      throw e;
    }
    if (instance.capacityReservationId !== undefined)
      this.capacityReservations.markTerminated(instance.capacityReservationId);
  }

  /** The NodeClaim of a live instance. */
  async get(providerID: string): Promise<NodeClaim> {
    const instance = await this.describe(providerID);
    return instanceNodeClaim(instance, await this.typeOf(instance), this.nodeClassOf(instance), this.o.clock.now());
  }

  /** Every live instance of the cluster that Tenon launched. */
  async list(): Promise<NodeClaim[]> {
    const instances = await this.o.port.describeInstances({
      filters: [
        { name: `tag:${clusterTagKey(this.o.cluster.name)}`, values: ['owned'] },
        { name: 'tag-key', values: [Labels.nodePool] },
        { name: 'instance-state-name', values: liveStates },
      ],
    });
    const now = this.o.clock.now();
    return Promise.all(
      instances.map(async (i) => instanceNodeClaim(i, await this.typeOf(i), this.nodeClassOf(i), now)),
    );
  }

  /** The class's instance types (empty when the class is missing or not Ready). */
  async getInstanceTypes(nodePool: NodePool): Promise<InstanceType[]> {
    const nodeClass = this.o.getNodeClass(nodePool.spec.template.spec.nodeClassRef.name);
    if (!nodeClass || !isReady(nodeClass)) return [];
    return (await this.instanceTypes.list(nodeClass)).map((t) => t.instanceType);
  }

  /** AMI, subnet, security group, NodeClass or placement group drift; undefined when in sync or unknowable. */
  async isDrifted(nodeClaim: NodeClaim): Promise<DriftReason | undefined> {
    const nodeClass = this.o.getNodeClass(nodeClaim.spec.nodeClassRef.name);
    if (!nodeClass || !isReady(nodeClass) || !nodeClaim.status?.providerID) return undefined;
    const instance = await this.describe(nodeClaim.status.providerID);
    const placementGroup = await this.placementGroups.get(nodeClass).catch(() => undefined);
    return driftOf(nodeClaim, nodeClass, instance) ?? placementGroupDrift(nodeClaim, placementGroup);
  }

  /** The EC2NodeClass's readiness for the NodePool's NodeClassReady condition; undefined for other kinds. */
  nodeClassReadiness(nodePool: NodePool): NodeClassReadiness | undefined {
    const ref = nodePool.spec.template.spec.nodeClassRef;
    if (ref.kind !== 'EC2NodeClass') return undefined;
    const nodeClass = this.o.getNodeClass(ref.name);
    if (!nodeClass)
      return {
        status: 'False',
        reason: ConditionReasons.nodeClassNotFound,
        message: `EC2NodeClass ${ref.name} not found on the cluster`,
      };
    if (nodeClass.metadata?.deletionTimestamp)
      return {
        status: 'False',
        reason: ConditionReasons.nodeClassTerminating,
        message: `EC2NodeClass ${ref.name} is terminating`,
      };
    const ready = nodeClass.status?.conditions?.find((c) => c.type === ConditionTypes.ready);
    if (!ready || ready.status === 'Unknown')
      return {
        status: 'False',
        reason: ConditionReasons.nodeClassReadinessUnknown,
        message: `EC2NodeClass ${ref.name} readiness unknown (not resolved yet)`,
      };
    if (ready.status === 'False')
      return {
        status: 'False',
        reason: ready.reason || ConditionReasons.nodeClassNotReady,
        message: `EC2NodeClass ${ref.name} is not Ready: ${ready.message ?? ''}`,
      };
    return { status: 'True', reason: ConditionReasons.nodeClassReady, message: '' };
  }

  /** The default policies plus the node monitoring agent's conditions. */
  repairPolicies(): RepairPolicy[] {
    return [...awsRepairPolicies];
  }

  private readyNodeClass(name: string): EC2NodeClass {
    const nodeClass = this.o.getNodeClass(name);
    if (!nodeClass) throw new NodeClassNotReadyError(name, `EC2NodeClass "${name}" not found`);
    if (!isReady(nodeClass)) {
      const ready = nodeClass.status?.conditions?.find((c) => c.type === ConditionTypes.ready);
      throw new NodeClassNotReadyError(
        name,
        `EC2NodeClass "${name}" is not ready${ready?.message ? `: ${ready.message}` : ' (not resolved yet)'}`,
      );
    }
    return nodeClass;
  }

  private async describe(providerID: string): Promise<InstanceInfo> {
    const id = instanceIdOf(providerID);
    if (id === undefined) throw new NodeClaimNotFoundError(providerID, `"${providerID}" is not an AWS provider ID`);
    const instance = await this.describes.submit(id);
    if (!instance || instance.state === 'terminated') throw new NodeClaimNotFoundError(providerID);
    return instance;
  }

  private nodeClassOf(instance: InstanceInfo): EC2NodeClass | undefined {
    const name = instance.tags[Labels.ec2NodeClass];
    return name === undefined ? undefined : this.o.getNodeClass(name);
  }

  private async typeOf(instance: InstanceInfo): Promise<ResolvedInstanceType | undefined> {
    const nodeClass = this.nodeClassOf(instance);
    if (!nodeClass || !isReady(nodeClass)) return undefined;
    return (await this.instanceTypes.list(nodeClass)).find((t) => t.info.instanceType === instance.instanceType);
  }
}

/** True when the class's Ready condition is True. */
export function isReady(nodeClass: EC2NodeClass): boolean {
  return nodeClass.status?.conditions?.some((c) => c.type === ConditionTypes.ready && c.status === 'True') ?? false;
}
