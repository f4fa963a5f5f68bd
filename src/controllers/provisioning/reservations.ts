/**
 * Karpenter's reserved offering fallback: one provisioning pass plans at most as many NodeClaims into a capacity
 * reservation as it has room for. The solver prices every reserved option near zero without counting; the planned
 * NodeClaims beyond a reservation's room whose cheapest option was that reservation are kept off reserved capacity
 * (`karpenter.sh/capacity-type NotIn [reserved]`), so they launch on-demand (or spot) at once instead of failing on a
 * full reservation and coming back in the next pass.
 */
import { Labels } from '../../api/index.js';
import type { InstanceType as ProviderInstanceType } from '../../cloudprovider/index.js';
import type { NewNodeClaim } from '../../scheduling/index.js';

/** The planned NodeClaims, those beyond their reservation's room kept off reserved capacity. */
export function withinReservations(
  planned: readonly NewNodeClaim[],
  types: ReadonlyMap<string, readonly ProviderInstanceType[]>,
): NewNodeClaim[] {
  const left = new Map<string, number>();
  return planned.map((nc) => {
    if (nc.cheapest.capacityType !== 'reserved') return nc;
    const type = types.get(nc.nodePool)?.find((t) => t.name === nc.cheapest.instanceType);
    const offering = type?.offerings.find(
      (o) => o.capacityType === 'reserved' && o.zone === nc.cheapest.zone && o.available,
    );
    const id = offering?.reservationId;
    if (offering === undefined || id === undefined || offering.reservationCapacity === undefined) return nc;
    const room = left.get(id) ?? offering.reservationCapacity;
    if (room > 0) {
      left.set(id, room - 1);
      return nc;
    }
    return {
      ...nc,
      requirements: [...nc.requirements, { key: Labels.capacityType, operator: 'NotIn', values: ['reserved'] }],
    };
  });
}
