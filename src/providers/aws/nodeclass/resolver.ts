/**
 * NodeClassResolver: resolves an EC2NodeClass into its `status` (subnets, security groups, AMIs, instance
 * profile) with the conditions SubnetsReady, SecurityGroupsReady, AMIsReady, InstanceProfileReady,
 * ValidationSucceeded and Ready, whose messages say which selector matched nothing. For the EC2NodeClass
 * controller; every AWS read goes through TTL caches, so a reconcile storm is not an API call storm.
 */
import {
  Annotations,
  ConditionTypes,
  type EC2NodeClass,
  type EC2NodeClassStatus,
  ConditionReasons,
} from '../../../api/index.js';
import { rfc3339, type Clock } from '../../../clock/index.js';
import { TtlCache } from '../cache/ttl-cache.js';
import { AwsApiError, type AwsPort, type ImageInfo, type SecurityGroupInfo, type SubnetInfo } from '../ports/index.js';
import { CapacityReservationProvider } from '../capacityreservation/provider.js';
import { reservationStatus } from '../capacityreservation/status.js';
import { resolveAmis } from './amis.js';
import { ok, readyOutcome, withTimestamps, type ConditionOutcome } from './conditions.js';
import { NodeClassHashVersion, nodeClassHash } from './hash.js';
import { checkInstanceProfile, ensureRoleProfile } from './instance-profile.js';
import { resolveSecurityGroups, resolveSubnets } from './network.js';
import { describeTerms } from './selectors.js';
import { PlacementGroupProvider } from './placement-group.js';
import { nameOf, specOf } from './settings.js';
import { validateNodeClass } from './validation.js';

/** Construction options of the resolver. */
export interface NodeClassResolverOptions {
  port: AwsPort;
  clock: Clock;
  clusterName: string;
  /** The cluster's Kubernetes minor version (`1.32`): AMI aliases resolve for it. */
  kubernetesVersion: string;
  /** Shared with the cloud provider, which launches into the group (one is made when absent). */
  placementGroups?: PlacementGroupProvider;
  /** Shared with the cloud provider, which offers and launches into the reservations (one is made when absent). */
  capacityReservations?: CapacityReservationProvider;
  /** The ReservedCapacity feature gate (default on, as in Karpenter v1.15): off, reservations are not resolved. */
  reservedCapacity?: boolean;
}

/** What resolving an EC2NodeClass yields: its new status, whether it is Ready, and its drift hash annotations. */
export interface NodeClassResolution {
  status: EC2NodeClassStatus;
  ready: boolean;
  /** `karpenter.k8s.aws/ec2nodeclass-hash` and `-hash-version`, for the class's metadata. */
  annotations: Record<string, string>;
}

/** How long describe results are reused. */
export const ResolutionTtlMs = 60_000;

type Part<T> = { value: T; outcome: ConditionOutcome };

function failure(e: unknown, type: string, reason: string): ConditionOutcome {
  if (!AwsApiError.is(e)) throw e;
  return { type, status: 'Unknown', reason, message: `${reason}: ${e.message}` };
}

// The reservations found (none: the field is left out, as Karpenter clears it); the last ones kept through a failure.
function reservationsField(
  part: Part<EC2NodeClassStatus['capacityReservations']> | undefined,
  previous: EC2NodeClassStatus['capacityReservations'],
): Pick<EC2NodeClassStatus, 'capacityReservations'> {
  const value = part === undefined ? [] : (part.value ?? previous ?? []);
  return value.length > 0 ? { capacityReservations: value } : {};
}

/** Resolves EC2NodeClasses against AWS (or the simulated EC2). */
export class NodeClassResolver {
  private readonly o: NodeClassResolverOptions;
  private readonly subnets: TtlCache<SubnetInfo[]>;
  private readonly groups: TtlCache<SecurityGroupInfo[]>;
  private readonly ssm: TtlCache<Record<string, string>>;
  private readonly images: TtlCache<ImageInfo[]>;
  private readonly placementGroups: PlacementGroupProvider;
  private readonly reservations: CapacityReservationProvider;

  constructor(options: NodeClassResolverOptions) {
    this.o = options;
    this.subnets = new TtlCache(options.clock, ResolutionTtlMs);
    this.groups = new TtlCache(options.clock, ResolutionTtlMs);
    this.ssm = new TtlCache(options.clock, ResolutionTtlMs);
    this.images = new TtlCache(options.clock, ResolutionTtlMs);
    this.placementGroups =
      options.placementGroups ?? new PlacementGroupProvider({ port: options.port, clock: options.clock });
    this.reservations =
      options.capacityReservations ?? new CapacityReservationProvider({ port: options.port, clock: options.clock });
  }

  /** Resolves the class; never throws for AWS errors (they become Unknown conditions with the error). */
  async resolve(nodeClass: EC2NodeClass): Promise<NodeClassResolution> {
    const spec = specOf(nodeClass);
    const [subnets, groups, amis, profile, placementGroup, reservations] = await Promise.all([
      this.resolveSubnets(spec.subnetSelectorTerms ?? []),
      this.resolveGroups(spec.securityGroupSelectorTerms ?? []),
      this.resolveAmiPart(spec.amiSelectorTerms ?? []),
      this.resolveProfile(nodeClass),
      this.placementGroups.condition(nodeClass),
      this.resolveReservations(spec.capacityReservationSelectorTerms ?? []),
    ]);
    const validation = validateNodeClass(nodeClass, this.o.clusterName);
    const outcomes = [
      subnets.outcome,
      groups.outcome,
      amis.outcome,
      profile.outcome,
      placementGroup,
      ...(reservations ? [reservations.outcome] : []),
      validation,
    ];
    const ready = readyOutcome(outcomes);
    const previous = nodeClass.status ?? {};
    const { capacityReservations: _replaced, ...kept } = previous;
    const status: EC2NodeClassStatus = {
      ...kept,
      subnets: subnets.value ?? previous.subnets ?? [],
      securityGroups: groups.value ?? previous.securityGroups ?? [],
      amis: amis.value ?? previous.amis ?? [],
      ...(profile.value !== undefined ? { instanceProfile: profile.value } : {}),
      ...reservationsField(reservations, previous.capacityReservations),
      conditions: withTimestamps(
        [...outcomes, ready],
        previous.conditions,
        rfc3339(this.o.clock.now()),
        nodeClass.metadata?.generation,
      ),
    };
    return {
      status,
      ready: ready.status === 'True',
      annotations: {
        [Annotations.nodeClassHash]: nodeClassHash(nodeClass),
        [Annotations.nodeClassHashVersion]: NodeClassHashVersion,
      },
    };
  }

  private async resolveSubnets(
    terms: NonNullable<EC2NodeClass['spec']>['subnetSelectorTerms'],
  ): Promise<Part<EC2NodeClassStatus['subnets']>> {
    const type = ConditionTypes.subnetsReady;
    try {
      const found = await resolveSubnets(this.o.port, this.subnets, terms);
      if (found.length === 0) {
        return {
          value: [],
          outcome: {
            type,
            status: 'False',
            reason: ConditionReasons.subnetsNotFound,
            message: `SubnetSelector did not match any Subnets: no subnet matched ${describeTerms(terms)}`,
          },
        };
      }
      return { value: found.map((s) => ({ id: s.subnetId, zone: s.zone, zoneID: s.zoneId })), outcome: ok(type) };
    } catch (e: unknown) {
      return { value: undefined, outcome: failure(e, type, 'SubnetsResolutionFailed') };
    }
  }

  private async resolveGroups(
    terms: NonNullable<EC2NodeClass['spec']>['securityGroupSelectorTerms'],
  ): Promise<Part<EC2NodeClassStatus['securityGroups']>> {
    const type = ConditionTypes.securityGroupsReady;
    try {
      const found = await resolveSecurityGroups(this.o.port, this.groups, terms);
      if (found.length === 0) {
        return {
          value: [],
          outcome: {
            type,
            status: 'False',
            reason: ConditionReasons.securityGroupsNotFound,
            message: `SecurityGroupSelector did not match any SecurityGroups: no security group matched ${describeTerms(terms)}`,
          },
        };
      }
      return { value: found.map((g) => ({ id: g.groupId, name: g.groupName })), outcome: ok(type) };
    } catch (e: unknown) {
      return { value: undefined, outcome: failure(e, type, 'SecurityGroupsResolutionFailed') };
    }
  }

  private async resolveAmiPart(
    terms: NonNullable<EC2NodeClass['spec']>['amiSelectorTerms'],
  ): Promise<Part<EC2NodeClassStatus['amis']>> {
    const type = ConditionTypes.amisReady;
    try {
      const k8s = this.o.kubernetesVersion;
      const found = await resolveAmis({
        port: this.o.port,
        caches: { ssm: this.ssm, images: this.images },
        terms,
        kubernetesVersion: k8s,
        now: this.o.clock.now(),
      });
      if (found.length === 0) {
        return {
          value: [],
          outcome: {
            type,
            status: 'False',
            reason: ConditionReasons.amiNotFound,
            message: `AMISelector did not match any AMIs: no AMI matched ${describeTerms(terms)} for Kubernetes ${k8s}`,
          },
        };
      }
      return { value: found, outcome: ok(type) };
    } catch (e: unknown) {
      return { value: undefined, outcome: failure(e, type, 'AMIResolutionFailed') };
    }
  }

  // Karpenter's CapacityReservationsReady is True whenever the lookup worked, whether or not anything matched.
  private async resolveReservations(
    terms: NonNullable<EC2NodeClass['spec']>['capacityReservationSelectorTerms'],
  ): Promise<Part<EC2NodeClassStatus['capacityReservations']> | undefined> {
    if (this.o.reservedCapacity === false) return undefined;
    const type = ConditionTypes.capacityReservationsReady;
    try {
      const now = this.o.clock.now();
      const found = (await this.reservations.list(terms ?? [])).flatMap((r) => reservationStatus(r, now) ?? []);
      return { value: found, outcome: ok(type) };
    } catch (e: unknown) {
      return { value: undefined, outcome: failure(e, type, 'CapacityReservationsResolutionFailed') };
    }
  }

  private async resolveProfile(nodeClass: EC2NodeClass): Promise<Part<string | undefined>> {
    const type = ConditionTypes.instanceProfileReady;
    const spec = specOf(nodeClass);
    try {
      const result =
        spec.instanceProfile !== undefined
          ? await checkInstanceProfile(this.o.port, spec.instanceProfile)
          : spec.role !== undefined
            ? await ensureRoleProfile({
                port: this.o.port,
                cluster: this.o.clusterName,
                nodeClassName: nameOf(nodeClass),
                role: spec.role,
              })
            : {
                ok: false as const,
                reason: ConditionReasons.instanceProfileNotFound,
                message: "neither 'role' nor 'instanceProfile' is set",
              };
      if (!result.ok)
        return { value: undefined, outcome: { type, status: 'False', reason: result.reason, message: result.message } };
      return { value: result.name, outcome: ok(type) };
    } catch (e: unknown) {
      return { value: undefined, outcome: failure(e, type, 'InstanceProfileResolutionFailed') };
    }
  }
}
