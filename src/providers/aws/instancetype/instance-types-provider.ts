/**
 * The instance types an EC2NodeClass can launch: DescribeInstanceTypes + offerings in the class's subnets'
 * zones, priced, minus unavailable offerings, with capacity, overhead and allocatable. Cached per class
 * settings and recomputed when the unavailable offerings change.
 */
import type { CapacityType, EC2NodeClass } from '../../../api/index.js';
import type { Clock } from '../../../clock/index.js';
import type { InstanceType, Offering } from '../../../cloudprovider/index.js';
import { Requirements } from '../../../scheduling/index.js';
import { TtlCache } from '../cache/ttl-cache.js';
import type { UnavailableOfferings } from '../cache/unavailable-offerings.js';
import { amiFamilyOf, blockDevicesOf, kubeletOf, rootVolumeGiBOf, specOf } from '../nodeclass/settings.js';
import type { PlacementGroupProvider } from '../nodeclass/placement-group.js';
import type { CapacityReservationProvider } from '../capacityreservation/provider.js';
import type { AwsPort, InstanceTypeInfo, PlacementGroupInfo } from '../ports/index.js';
import { spotKey, type PricingProvider } from '../pricing/pricing-provider.js';
import { familyOs, familyWindowsBuild } from './ami-family.js';
import { isCompatible } from './compatibility.js';
import { instanceTypeLabels } from './labels.js';
import { computeResources, maxPods, type OverheadSettings } from './overhead.js';
import { toResourceList, type Amounts } from './quantities.js';
import { instanceTypeRequirements, placementGroupRequirements } from './requirements.js';
import { withReservedOfferings } from './reserved-offerings.js';
import { EbsCsiDriver, ebsAttachLimit } from './volume-limits.js';

/** An instance type plus what the provider needs to launch it without recomputing. */
export interface ResolvedInstanceType {
  instanceType: InstanceType;
  info: InstanceTypeInfo;
  requirements: Requirements;
  allocatable: Amounts;
  maxPods: number;
}

/** Operator-level settings of instance-type computation (Karpenter's options). */
export interface InstanceTypeSettings {
  vmMemoryOverheadPercent: number;
  reservedEnis: number;
}

/** How long DescribeInstanceTypes and offerings are reused, and how long a computed list is. */
export const InstanceTypeInfoTtlMs = 60 * 60_000;
/** Computed lists are recomputed at least every minute (prices move). */
export const ComputedInstanceTypesTtlMs = 60_000;

/** A computed list and the unavailable-offerings sequence it was computed at. */
interface ComputedList {
  seq: number;
  types: ResolvedInstanceType[];
}

/** Distinct class settings whose lists are kept (one per EC2NodeClass shape in practice). */
const MaxComputedLists = 64;

/** Lists instance types for EC2NodeClasses. */
export class InstanceTypesProvider {
  private readonly port: AwsPort;
  private readonly pricing: PricingProvider;
  private readonly unavailable: UnavailableOfferings;
  private readonly settings: InstanceTypeSettings;
  private readonly infos: TtlCache<InstanceTypeInfo[]>;
  private readonly zonesByType: TtlCache<ReadonlyMap<string, ReadonlySet<string>>>;
  private readonly computed: TtlCache<ComputedList>;
  private readonly placementGroups: PlacementGroupProvider | undefined;
  private readonly reservations: CapacityReservationProvider | undefined;
  private readonly reserved: TtlCache<ResolvedInstanceType[]>;

  constructor(input: {
    port: AwsPort;
    clock: Clock;
    pricing: PricingProvider;
    unavailable: UnavailableOfferings;
    settings: InstanceTypeSettings;
    /** Resolves the class's placement group (types must support its strategy; offerings carry its id). */
    placementGroups?: PlacementGroupProvider;
    /** Counts what each reservation can still take; absent (ReservedCapacity off): no reserved offerings. */
    reservations?: CapacityReservationProvider;
  }) {
    this.port = input.port;
    this.reservations = input.reservations;
    this.placementGroups = input.placementGroups;
    this.pricing = input.pricing;
    this.unavailable = input.unavailable;
    this.settings = input.settings;
    this.infos = new TtlCache(input.clock, InstanceTypeInfoTtlMs);
    this.zonesByType = new TtlCache(input.clock, InstanceTypeInfoTtlMs);
    this.computed = new TtlCache(input.clock, ComputedInstanceTypesTtlMs, { maxEntries: MaxComputedLists });
    this.reserved = new TtlCache(input.clock, ComputedInstanceTypesTtlMs, { maxEntries: MaxComputedLists });
  }

  /** The settings that shape capacity for a class. */
  overheadSettings(nodeClass: EC2NodeClass): OverheadSettings {
    const spec = specOf(nodeClass);
    return {
      family: amiFamilyOf(nodeClass),
      kubelet: kubeletOf(nodeClass),
      blockDeviceMappings: spec.blockDeviceMappings ? blockDevicesOf(nodeClass) : undefined,
      rootVolumeGiB: rootVolumeGiBOf(nodeClass),
      instanceStorePolicy: spec.instanceStorePolicy,
      vmMemoryOverheadPercent: this.settings.vmMemoryOverheadPercent,
      reservedEnis: this.settings.reservedEnis,
      networkInterfaces: spec.networkInterfaces,
      ipPrefixCount: spec.ipPrefixCount,
    };
  }

  /** Every type the class can launch somewhere (types without any priced offering are left out). */
  async list(nodeClass: EC2NodeClass): Promise<ResolvedInstanceType[]> {
    const subnets = nodeClass.status?.subnets ?? [];
    const s = this.overheadSettings(nodeClass);
    const spec = specOf(nodeClass);
    const placementGroup = await this.placementGroups?.get(nodeClass).catch(() => undefined);
    const compat = { spec, family: s.family, placementGroup };
    const narrowing = [spec.cpuOptions, spec.enclaveOptions, spec.connectionTracking ?? null, placementGroup ?? null];
    // The unavailable-offerings sequence is not part of the key: it changes with every capacity error, and a key
    // per value would keep a list per error. A list computed at another sequence is recomputed in place.
    const key = JSON.stringify([s, narrowing, subnets.map((x) => [x.zone, x.zoneID])]);
    const seq = this.unavailable.seq;
    const current = (c: ComputedList): boolean => c.seq === seq;
    const computed = await this.computed.getOrLoad(
      key,
      async () => {
        const [infos, zonesByType, onDemand, spot] = await Promise.all([
          this.infos.getOrLoad('all', () => this.port.describeInstanceTypes()),
          this.zonesByType.getOrLoad('all', () => this.loadOfferings()),
          this.pricing.onDemand(),
          this.pricing.spot(),
        ]);
        const zoneIds = new Map(subnets.map((x) => [x.zone, x.zoneID ?? '']));
        const out: ResolvedInstanceType[] = [];
        for (const info of infos) {
          if (!isCompatible(info, compat)) continue;
          const offered = zonesByType.get(info.instanceType);
          const zones = [...zoneIds.keys()].filter((z) => offered?.has(z));
          const offerings = this.offerings(info, zones, { onDemand, spot });
          if (offerings.length === 0) continue;
          const resolved = this.resolve(info, offerings, { s, zoneIds, placementGroup });
          if (resolved) out.push(resolved);
        }
        return { seq, types: out };
      },
      undefined,
      current,
    );
    return this.withReservations(nodeClass, key, computed);
  }

  // The class's reservations as offerings; recomputed when the reservations or their available counts change.
  private async withReservations(
    nodeClass: EC2NodeClass,
    key: string,
    computed: ComputedList,
  ): Promise<ResolvedInstanceType[]> {
    const reservations = nodeClass.status?.capacityReservations ?? [];
    const counts = this.reservations;
    if (reservations.length === 0 || !counts) return computed.types;
    const zones = new Set((nodeClass.status?.subnets ?? []).map((x) => x.zone));
    const sig = JSON.stringify([key, computed.seq, counts.seq, reservations]);
    return this.reserved.getOrLoad(sig, async () =>
      withReservedOfferings(computed.types, { reservations, zones, availableCount: (id) => counts.availableCount(id) }),
    );
  }

  /** How many computed lists are cached (bounded; for memory tests and diagnostics). */
  get cachedLists(): number {
    return this.computed.size;
  }

  private async loadOfferings(): Promise<ReadonlyMap<string, ReadonlySet<string>>> {
    const out = new Map<string, Set<string>>();
    for (const o of await this.port.describeInstanceTypeOfferings()) {
      const set = out.get(o.instanceType) ?? new Set<string>();
      set.add(o.zone);
      out.set(o.instanceType, set);
    }
    return out;
  }

  private offerings(
    info: InstanceTypeInfo,
    zones: string[],
    prices: { onDemand: ReadonlyMap<string, number>; spot: ReadonlyMap<string, number> },
  ): Offering[] {
    const out: Offering[] = [];
    for (const zone of zones) {
      for (const capacityType of new Set(info.supportedUsageClasses)) {
        const price =
          capacityType === 'spot'
            ? prices.spot.get(spotKey(info.instanceType, zone))
            : prices.onDemand.get(info.instanceType);
        // A type without a public price is not offered (nothing could say what it costs).
        if (price === undefined) continue;
        const ct: CapacityType = capacityType;
        out.push({
          zone,
          capacityType: ct,
          price,
          available: !this.unavailable.isUnavailable(info.instanceType, zone, ct),
        });
      }
    }
    return out;
  }

  private resolve(
    info: InstanceTypeInfo,
    offerings: Offering[],
    o: { s: OverheadSettings; zoneIds: ReadonlyMap<string, string>; placementGroup: PlacementGroupInfo | undefined },
  ): ResolvedInstanceType | undefined {
    const { s, zoneIds } = o;
    const os = familyOs(s.family);
    // Windows AMIs exist for x86_64 only.
    if (os === 'windows' && info.architectures[0] === 'arm64') return undefined;
    const labels = instanceTypeLabels(info, os, familyWindowsBuild(s.family));
    const r = computeResources(info, s);
    const requirements = [
      ...instanceTypeRequirements({ labels, offerings, region: this.port.region, zoneIds }),
      ...placementGroupRequirements(o.placementGroup),
    ];
    const instanceType: InstanceType = {
      name: info.instanceType,
      labels,
      requirements,
      capacity: toResourceList(r.capacity),
      overhead: {
        kubeReserved: toResourceList(r.kubeReserved),
        systemReserved: toResourceList(r.systemReserved),
        evictionThreshold: toResourceList(r.evictionThreshold),
      },
      allocatable: toResourceList(r.allocatable),
      offerings,
      csiAttachLimits: { [EbsCsiDriver]: ebsAttachLimit(info.hypervisor) },
    };
    return {
      instanceType,
      info,
      requirements: Requirements.fromSelector(requirements),
      allocatable: r.allocatable,
      maxPods: maxPods(info, s),
    };
  }
}
