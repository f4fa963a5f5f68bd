/**
 * Which instance types and offerings a NodeClaim may launch on: its requirements narrowed to compatible
 * types that fit its requests, the capacity type chosen as Karpenter does (a capacity reservation with room when
 * the NodeClaim allows `reserved`, else spot when it is the cheaper and allowed, else on-demand), ordered cheapest
 * first and cut to 60 types.
 */
import { Labels, type CapacityType } from '../../../api/index.js';
import type { NodeClaim, Offering, OfferingRef } from '../../../cloudprovider/index.js';
import { Requirements, type Requirement } from '../../../scheduling/index.js';
import type { ResolvedInstanceType } from '../instancetype/instance-types-provider.js';
import { parseAmounts } from '../instancetype/quantities.js';

/** Most instance types one launch considers (Karpenter's limit). */
export const MaxInstanceTypesPerLaunch = 60;

/** One type and the offerings of the chosen capacity type it may launch in. */
export interface LaunchCandidate {
  type: ResolvedInstanceType;
  offerings: Offering[];
}

/** The outcome of planning: candidates to launch, or why there are none. */
export type LaunchPlan =
  | { ok: true; capacityType: CapacityType; candidates: LaunchCandidate[] }
  | { ok: false; message: string; offeringsTried: OfferingRef[] };

function fits(requests: Record<string, number>, allocatable: Record<string, number>): boolean {
  return Object.entries(requests).every(([k, v]) => v <= (allocatable[k] ?? 0));
}

function allowedOfferings(type: ResolvedInstanceType, reqs: Requirements): Offering[] {
  const zone = reqs.get(Labels.zone);
  const ct = reqs.get(Labels.capacityType);
  const rid = reqs.get(Labels.capacityReservationId);
  return type.instanceType.offerings.filter(
    (o) =>
      o.available &&
      (!zone || zone.has(o.zone)) &&
      (!ct || ct.has(o.capacityType)) &&
      (!rid || (o.reservationId === undefined ? rid.complement : rid.has(o.reservationId))),
  );
}

const cheapest = (offerings: Offering[]): number => Math.min(...offerings.map((o) => o.price));

/**
 * The type is not among those the NodeClaim names: passed over before the full intersection, which gives the same
 * verdict on that one key (a scale-up's 5,000 NodeClaims times hundreds of types).
 */
function notNamed(named: Requirement | undefined, type: ResolvedInstanceType): boolean {
  const own = named ? type.requirements.get(Labels.instanceType) : undefined;
  const name = own?.size === 1 ? own.any() : undefined;
  return named !== undefined && name !== undefined && !named.has(name);
}

/** Plans a launch for the NodeClaim among the class's instance types. */
export function planLaunch(nodeClaim: NodeClaim, types: ResolvedInstanceType[]): LaunchPlan {
  const reqs = Requirements.fromSelector(nodeClaim.spec.requirements);
  const requests = parseAmounts(nodeClaim.spec.resources?.requests);
  const compatible: LaunchCandidate[] = [];
  const named = reqs.get(Labels.instanceType);
  for (const type of types) {
    if (notNamed(named, type)) continue;
    if (reqs.intersects(type.requirements) !== undefined || !fits(requests, type.allocatable)) continue;
    const offerings = allowedOfferings(type, reqs);
    if (offerings.length > 0) compatible.push({ type, offerings });
  }
  if (compatible.length === 0) {
    return {
      ok: false,
      message: `no instance type satisfies the requirements and requests of NodeClaim ${nodeClaim.metadata.name} with an available offering`,
      offeringsTried: [],
    };
  }
  const byType = (ct: CapacityType): LaunchCandidate[] =>
    compatible.flatMap((c) => {
      const offerings = c.offerings.filter((o) => o.capacityType === ct);
      return offerings.length > 0 ? [{ type: c.type, offerings }] : [];
    });
  const reserved = byType('reserved');
  if (reserved.length > 0) return { ok: true, capacityType: 'reserved', candidates: cheapestFirst(reserved) };
  const onDemand = byType('on-demand');
  const spot = byType('spot');
  const cheapestOnDemand =
    onDemand.length > 0 ? Math.min(...onDemand.map((c) => cheapest(c.offerings))) : Number.POSITIVE_INFINITY;
  // Spot types dearer than the cheapest on-demand choice are not worth their interruption risk.
  const worthwhileSpot = spot.filter((c) => cheapest(c.offerings) <= cheapestOnDemand);
  const useSpot = worthwhileSpot.length > 0;
  return {
    ok: true,
    capacityType: useSpot ? 'spot' : 'on-demand',
    candidates: cheapestFirst(useSpot ? worthwhileSpot : onDemand),
  };
}

function cheapestFirst(candidates: LaunchCandidate[]): LaunchCandidate[] {
  return candidates
    .sort(
      (a, b) =>
        cheapest(a.offerings) - cheapest(b.offerings) ||
        a.type.info.instanceType.localeCompare(b.type.info.instanceType),
    )
    .slice(0, MaxInstanceTypesPerLaunch);
}
