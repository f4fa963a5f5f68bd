/** Capacity reservations as an EC2NodeClass's `status.capacityReservations` lists them. */
import type { CapacityReservationStatus } from '../../../api/index.js';
import { rfc3339 } from '../../../clock/index.js';
import type { CapacityReservationInfo } from '../ports/index.js';

/**
 * A capacity block is `expiring` from 40 minutes before its end: EC2 starts terminating its instances 30 minutes
 * before the end, and Karpenter drains them 10 minutes ahead of that.
 */
export const CapacityBlockExpiringMs = 40 * 60_000;

/**
 * The status entry of a reservation; undefined for an instance match criteria other than `open`/`targeted` (a value
 * EC2 may add later, which the CRD's enum would refuse).
 */
export function reservationStatus(r: CapacityReservationInfo, now: number): CapacityReservationStatus | undefined {
  const imc = r.instanceMatchCriteria;
  if (imc !== 'open' && imc !== 'targeted') return undefined;
  const capacityBlock = r.reservationType === 'capacity-block';
  const end = r.endDate?.getTime();
  const expiring = capacityBlock && end !== undefined && end - now <= CapacityBlockExpiringMs;
  return {
    availabilityZone: r.zone,
    ...(r.endDate === undefined ? {} : { endTime: rfc3339(r.endDate.getTime()) }),
    id: r.capacityReservationId,
    instanceMatchCriteria: imc,
    instanceType: r.instanceType,
    interruptible: r.interruptible,
    ownerID: r.ownerId,
    reservationType: capacityBlock ? 'capacity-block' : 'default',
    state: expiring ? 'expiring' : 'active',
  };
}
