/** What a scenario's `world` adds to a fresh playground beyond zones and defaults: capacity reservations. */
import { parseDuration } from '../../settings/duration.js';
import type { Playground } from '../playground/playground.js';
import type { WorldSpec } from './format.js';

/** Creates the reservations in the simulated account; throws naming the field when a zone is not the region's. */
export function addCapacityReservations(pg: Playground, world: WorldSpec | undefined): void {
  const zones = pg.ec2.account.zones;
  (world?.capacityReservations ?? []).forEach((r, i) => {
    if (!zones.includes(r.zone))
      throw new Error(
        `world.capacityReservations[${i}].zone: "${r.zone}" is not a zone of the simulated region (${zones.join(', ')})`,
      );
    const endsAfter = r.endsAfter === undefined ? undefined : parseDuration(r.endsAfter);
    pg.ec2.createCapacityReservation({
      instanceType: r.instanceType,
      zone: r.zone,
      count: r.count,
      ...(r.instanceMatchCriteria ? { instanceMatchCriteria: r.instanceMatchCriteria } : {}),
      ...(r.reservationType ? { reservationType: r.reservationType } : {}),
      ...(r.tags ? { tags: r.tags } : {}),
      ...(r.interruptible === undefined ? {} : { interruptible: r.interruptible }),
      ...(endsAfter === undefined ? {} : { endDate: new Date(pg.clock.now() + endsAfter) }),
    });
  });
}
