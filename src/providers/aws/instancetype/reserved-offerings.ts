/**
 * Reserved offerings, as Karpenter adds them for the capacity reservations an EC2NodeClass's status lists: one per
 * reservation of a type, in the reservation's zone, capacity type `reserved`, carrying the reservation's id. It is
 * available while the reservation has room, is not an expiring capacity block and its zone is one the class launches
 * in. Its price is the type's on-demand price over 10,000,000: in effect free (the reservation is paid for whether it
 * is used or not), so it is chosen first, while reserved types keep the on-demand order among themselves.
 */
import { Labels, type CapacityReservationStatus } from '../../../api/index.js';
import type { Offering } from '../../../cloudprovider/index.js';
import { Requirements } from '../../../scheduling/index.js';
import type { ResolvedInstanceType } from './instance-types-provider.js';

/** What a reserved offering costs relative to the type's on-demand price (Karpenter's divisor). */
export const ReservedPriceDivisor = 10_000_000;

/** What adding reserved offerings needs beyond the types. */
export interface ReservedOfferingsInput {
  reservations: readonly CapacityReservationStatus[];
  /** Instances a reservation can still take. */
  availableCount: (reservationId: string) => number;
  /** Zones the class launches in (its subnets'). */
  zones: ReadonlySet<string>;
}

function reservedOffering(
  type: ResolvedInstanceType,
  r: CapacityReservationStatus,
  o: ReservedOfferingsInput,
): Offering {
  const onDemand = type.instanceType.offerings.find((x) => x.capacityType === 'on-demand')?.price ?? 0;
  const room = o.availableCount(r.id);
  return {
    zone: r.availabilityZone,
    capacityType: 'reserved',
    price: onDemand / ReservedPriceDivisor,
    available: room > 0 && r.state !== 'expiring' && o.zones.has(r.availabilityZone),
    reservationId: r.id,
    reservationCapacity: room,
  };
}

// The type's zone and capacity-type requirements widened to what its available offerings now include.
function widened(
  type: ResolvedInstanceType,
  offerings: Offering[],
): ResolvedInstanceType['instanceType']['requirements'] {
  const available = offerings.filter((x) => x.available);
  const values = (key: string, own: string[]): string[] => {
    const extra = available.map((x) => (key === Labels.zone ? x.zone : x.capacityType));
    return [...new Set([...own, ...extra])].sort();
  };
  return type.instanceType.requirements.map((r) =>
    r.key === Labels.zone || r.key === Labels.capacityType ? { ...r, values: values(r.key, r.values ?? []) } : r,
  );
}

/** The types with a reserved offering added per reservation of theirs (the others are returned as they are). */
export function withReservedOfferings(
  types: readonly ResolvedInstanceType[],
  input: ReservedOfferingsInput,
): ResolvedInstanceType[] {
  const byType = new Map<string, CapacityReservationStatus[]>();
  for (const r of input.reservations) byType.set(r.instanceType, [...(byType.get(r.instanceType) ?? []), r]);
  return types.map((t) => {
    const mine = byType.get(t.info.instanceType);
    if (!mine) return t;
    const offerings = [...t.instanceType.offerings, ...mine.map((r) => reservedOffering(t, r, input))];
    const requirements = widened(t, offerings);
    return {
      ...t,
      instanceType: { ...t.instanceType, offerings, requirements },
      requirements: Requirements.fromSelector(requirements),
    };
  });
}
