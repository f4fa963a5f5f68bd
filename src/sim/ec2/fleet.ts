/**
 * CreateFleet (type `instant`) in the simulated account: picks overrides by the allocation strategy,
 * takes capacity from the pools (or from the capacity reservation an override launches into), and reports an
 * InsufficientInstanceCapacity (ReservationCapacityExceeded) error per override that had none.
 */
import type { FleetError, FleetOverride, FleetRequest, FleetResult } from '../../providers/aws/ports/index.js';
import type { SimMarket } from './market.js';

/** What the fleet needs to know about the account to place instances. */
export interface FleetContext {
  market: SimMarket;
  now: number;
  /** Why an override cannot be launched at all (unknown type, zone not offering it, ...); undefined when it can. */
  unsupported: (o: FleetOverride) => string | undefined;
  /** The capacity reservation an override launches into, if any. */
  reservation?: (o: FleetOverride) => ReservationSlot | undefined;
}

/**
 * A capacity reservation as a launch sees it. A targeted one is the only source of its override; an open one takes
 * the launch while it has room, the pool after that.
 */
export interface ReservationSlot {
  id: string;
  targeted: boolean;
  available: () => number;
  take: () => void;
}

/** One placement the fleet decided on. */
export interface FleetPlacement {
  override: FleetOverride;
  /** The reservation the instance runs in, when it does. */
  reservationId?: string;
}

function price(ctx: FleetContext, req: FleetRequest, o: FleetOverride): number {
  const p =
    req.capacityType === 'spot'
      ? ctx.market.spotPrice(o.instanceType, o.zone, ctx.now)
      : ctx.market.onDemandPrice(o.instanceType);
  return p ?? Number.POSITIVE_INFINITY;
}

function ordered(ctx: FleetContext, req: FleetRequest, overrides: FleetOverride[]): FleetOverride[] {
  const withPrice = overrides.map((o, index) => ({ o, index, price: price(ctx, req, o) }));
  const byPriority =
    req.allocationStrategy === 'prioritized' || req.allocationStrategy === 'capacity-optimized-prioritized';
  withPrice.sort((a, b) =>
    byPriority
      ? (a.o.priority ?? 0) - (b.o.priority ?? 0) || a.index - b.index
      : a.price - b.price || a.index - b.index,
  );
  return withPrice.map((x) => x.o);
}

function depth(ctx: FleetContext, req: FleetRequest, o: FleetOverride): number {
  const r = ctx.reservation?.(o);
  if (r && (r.targeted || r.available() > 0)) return r.available();
  return ctx.market.available({ instanceType: o.instanceType, zone: o.zone, capacityType: req.capacityType });
}

function take(ctx: FleetContext, req: FleetRequest, o: FleetOverride): FleetPlacement {
  const r = ctx.reservation?.(o);
  if (r && r.available() > 0) {
    r.take();
    return { override: o, reservationId: r.id };
  }
  ctx.market.take({ instanceType: o.instanceType, zone: o.zone, capacityType: req.capacityType });
  return { override: o };
}

function shortage(ctx: FleetContext, o: FleetOverride): FleetError {
  const where = { instanceType: o.instanceType, subnetId: o.subnetId, zone: o.zone };
  const r = ctx.reservation?.(o);
  if (r?.targeted)
    return {
      ...where,
      code: 'ReservationCapacityExceeded',
      message: `The targeted Capacity Reservation ${r.id} does not have enough available instance capacity to fulfill your request.`,
    };
  return {
    ...where,
    code: 'InsufficientInstanceCapacity',
    message: `We currently do not have sufficient ${o.instanceType} capacity in the Availability Zone you requested (${o.zone}).`,
  };
}

/**
 * Chooses the next override: the first in strategy order with capacity. Price-capacity-optimized prefers,
 * among the cheapest few pools, the deepest one (so a nearly empty cheap pool is passed over).
 */
function choose(ctx: FleetContext, req: FleetRequest, candidates: FleetOverride[]): FleetOverride | undefined {
  const open = candidates.filter((o) => depth(ctx, req, o) > 0);
  if (req.allocationStrategy !== 'price-capacity-optimized') return open[0];
  const cheapest = open.slice(0, 3);
  let best = cheapest[0];
  for (const o of cheapest) if (best && depth(ctx, req, o) > 2 * depth(ctx, req, best)) best = o;
  return best;
}

/** Places `targetCapacity` instances; per-override errors for every override that had no capacity or cannot run. */
export function placeFleet(
  ctx: FleetContext,
  req: FleetRequest,
): { placements: FleetPlacement[]; errors: FleetError[] } {
  const errors: FleetError[] = [];
  const launchable: FleetOverride[] = [];
  for (const o of req.overrides) {
    const why = ctx.unsupported(o);
    if (why === undefined) launchable.push(o);
    else
      errors.push({
        instanceType: o.instanceType,
        subnetId: o.subnetId,
        zone: o.zone,
        code: 'Unsupported',
        message: why,
      });
  }
  const order = ordered(ctx, req, launchable);
  const target = req.targetCapacity ?? 1;
  const placements: FleetPlacement[] = [];
  for (let n = 0; n < target; n++) {
    const pick = choose(ctx, req, order);
    if (!pick) break;
    placements.push(take(ctx, req, pick));
  }
  // An override was tried when the fleet came to it: before the last one it placed on, or all when it fell short.
  const reach =
    placements.length < target ? order.length : Math.max(...placements.map((p) => order.indexOf(p.override))) + 1;
  for (const o of order.slice(0, reach)) {
    if (depth(ctx, req, o) > 0) continue;
    errors.push(shortage(ctx, o));
  }
  return { placements, errors };
}

/** Assembles the port result from placements and the ids the account gave them. */
export function fleetResult(
  req: FleetRequest,
  placed: Array<{ placement: FleetPlacement; instanceId: string }>,
  errors: FleetError[],
): FleetResult {
  return {
    instances: placed.map(({ placement, instanceId }) => ({
      instanceId,
      instanceType: placement.override.instanceType,
      zone: placement.override.zone,
      subnetId: placement.override.subnetId,
      capacityType: req.capacityType,
      ...(placement.reservationId === undefined ? {} : { capacityReservationId: placement.reservationId }),
    })),
    errors,
  };
}
