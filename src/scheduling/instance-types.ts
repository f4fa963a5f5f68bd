/**
 * Instance types prepared once per solve: requirements (labels plus the zones and capacity types of their
 * available offerings), resource vectors, and the cheapest available offering.
 */
import { Labels } from '../api/index.js';
import type { InstanceType, Offering } from './model.js';
import { Requirement, type RequirementTable } from './requirements/requirement.js';
import { Requirements } from './requirements/requirements.js';
import { attachResource, fromResourceList, subtractResources, type Resources } from './resources/resources.js';

/** An instance type ready for the solver. */
export interface InstanceTypeInfo {
  name: string;
  requirements: Requirements;
  capacity: Resources;
  allocatable: Resources;
  /** Available offerings only. */
  offerings: Offering[];
  /** Cheapest available offering price. */
  price: number;
  source: InstanceType;
}

/** Prepares an instance type; undefined when it has no available offering (it cannot be launched). */
export function prepareInstanceType(it: InstanceType, table?: RequirementTable): InstanceTypeInfo | undefined {
  const offerings = it.offerings.filter((o) => o.available);
  if (offerings.length === 0) return undefined;
  const requirements = Requirements.fromSelector(it.requirements, table);
  requirements.addAll(Requirements.fromLabels({ ...it.labels, [Labels.instanceType]: it.name }, table));
  requirements.add(Requirement.of(Labels.zone, 'In', [...new Set(offerings.map((o) => o.zone))]));
  requirements.add(Requirement.of(Labels.capacityType, 'In', [...new Set(offerings.map((o) => o.capacityType))]));
  const capacity = fromResourceList(it.capacity);
  const allocatable = it.allocatable
    ? fromResourceList(it.allocatable)
    : subtractResources(capacity, fromResourceList(it.overhead));
  // Planned NodeClaims hold no more volumes than the node will attach (existing nodes check their CSINode).
  for (const [driver, n] of Object.entries(it.csiAttachLimits ?? {})) allocatable[attachResource(driver)] = n;
  return {
    name: it.name,
    requirements,
    capacity,
    allocatable,
    offerings,
    price: Math.min(...offerings.map((o) => o.price)),
    source: it,
  };
}

// Read once: the barrel's re-exported object costs a getter call per access on the hot path.
const zoneKey = Labels.zone;
const capacityTypeKey = Labels.capacityType;
const reservationKey = Labels.capacityReservationId;

/** True when `o` is allowed by `reqs` (zone, capacity type and reservation id). */
export function offeringAllowed(o: Offering, reqs: Requirements): boolean {
  const zone = reqs.get(zoneKey);
  if (zone && !zone.has(o.zone)) return false;
  const ct = reqs.get(capacityTypeKey);
  if (ct && !ct.has(o.capacityType)) return false;
  const rid = reqs.get(reservationKey);
  if (rid && (o.reservationId === undefined ? !rid.complement : !rid.has(o.reservationId))) return false;
  return true;
}

/** The cheapest offering of `it` that `reqs` allow, if any. */
export function cheapestOffering(it: InstanceTypeInfo, reqs: Requirements): Offering | undefined {
  let best: Offering | undefined;
  for (const o of it.offerings) {
    if (offeringAllowed(o, reqs) && (!best || o.price < best.price)) best = o;
  }
  return best;
}
