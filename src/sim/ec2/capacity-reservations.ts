/**
 * Capacity reservations of the simulated account: made by the playground (scenarios and tests), listed by
 * DescribeCapacityReservations, and drawn on by launches as EC2 does: a launch template that targets one launches into
 * it only (ReservationCapacityExceeded when it is full), and an untargeted on-demand launch (no reservation preference
 * in its template, EC2's default `open`) goes into an `open` reservation of its type and zone while one has room.
 */
import { AwsApiError, type CapacityReservationInfo, type Filter, type Tags } from '../../providers/aws/ports/index.js';
import { matchesFilters } from './filters.js';
import type { ReservationSlot } from './fleet.js';
import type { SimLaunchTemplate } from './account.js';

/** What a simulated reservation is made of. */
export interface SimCapacityReservationInput {
  instanceType: string;
  zone: string;
  /** Instances it holds. */
  count: number;
  /** Default `targeted`. */
  instanceMatchCriteria?: 'open' | 'targeted';
  /** Default `default`. */
  reservationType?: 'default' | 'capacity-block';
  tags?: Tags;
  /** When it ends (required for a capacity block by EC2; optional here). */
  endDate?: Date;
  interruptible?: boolean;
  /** The owning account (default the simulated account). */
  ownerId?: string;
}

/** The reservations of the account, by id. */
export class SimCapacityReservations {
  private readonly byId = new Map<string, CapacityReservationInfo>();

  /** Adds an active reservation with every slot free. */
  create(id: string, ownerId: string, input: SimCapacityReservationInput): CapacityReservationInfo {
    const r: CapacityReservationInfo = {
      capacityReservationId: id,
      instanceType: input.instanceType,
      zone: input.zone,
      ownerId: input.ownerId ?? ownerId,
      instanceMatchCriteria: input.instanceMatchCriteria ?? 'targeted',
      reservationType: input.reservationType ?? 'default',
      state: 'active',
      availableInstanceCount: input.count,
      totalInstanceCount: input.count,
      ...(input.endDate ? { endDate: new Date(input.endDate.getTime()) } : {}),
      interruptible: input.interruptible ?? false,
      tags: { ...input.tags },
    };
    this.byId.set(id, r);
    return r;
  }

  /** Cancels a reservation (it takes no more launches; running instances stay, as on-demand ones). */
  cancel(id: string): void {
    const r = this.byId.get(id);
    if (r) r.state = 'cancelled';
  }

  /** Reservations by ids (NotFound for an unknown one, as EC2 answers) and filters, as copies. */
  describe(input: { ids?: string[]; filters?: Filter[] }, now: number): CapacityReservationInfo[] {
    for (const id of input.ids ?? []) {
      if (!this.byId.has(id))
        throw new AwsApiError(
          'InvalidCapacityReservationId.NotFound',
          `The capacity reservation ID '${id}' does not exist`,
        );
    }
    return [...this.byId.values()]
      .map((r) => this.current(r, now))
      .filter((r) => input.ids === undefined || input.ids.includes(r.capacityReservationId))
      .filter((r) =>
        matchesFilters(
          {
            tags: r.tags,
            attributes: {
              state: r.state,
              'owner-id': r.ownerId,
              'instance-match-criteria': r.instanceMatchCriteria,
              'instance-type': r.instanceType,
              'availability-zone': r.zone,
            },
          },
          input.filters ?? [],
        ),
      )
      .map((r) => ({ ...r, tags: { ...r.tags }, ...(r.endDate ? { endDate: new Date(r.endDate.getTime()) } : {}) }));
  }

  /**
   * The reservation one override of a launch draws on, if any: the one its template targets (whatever its type and
   * zone: a mismatch, like a full or inactive reservation, has no room), or for an on-demand launch whose template
   * states no preference, an open active reservation of its type and zone with room.
   */
  slotFor(input: {
    template: SimLaunchTemplate | undefined;
    instanceType: string;
    zone: string;
    onDemand: boolean;
    now: number;
  }): ReservationSlot | undefined {
    const spec = input.template?.capacityReservation;
    if (spec?.preference === 'capacity-reservations-only') {
      const r = spec.reservationId === undefined ? undefined : this.byId.get(spec.reservationId);
      const fits = r !== undefined && r.instanceType === input.instanceType && r.zone === input.zone;
      return this.slot(r && fits ? r : undefined, spec.reservationId ?? '', input.now, true);
    }
    if (spec !== undefined || !input.onDemand) return undefined;
    const open = [...this.byId.values()].find(
      (r) =>
        r.instanceMatchCriteria === 'open' &&
        r.instanceType === input.instanceType &&
        r.zone === input.zone &&
        this.current(r, input.now).state === 'active' &&
        r.availableInstanceCount > 0,
    );
    return open ? this.slot(open, open.capacityReservationId, input.now, false) : undefined;
  }

  /** Takes `count` free slots as instances launched outside the cluster would (fault injection). */
  occupy(id: string, count: number): void {
    const r = this.byId.get(id);
    if (r) r.availableInstanceCount = Math.max(0, r.availableInstanceCount - count);
  }

  /** A slot of the reservation comes back (its instance terminated). */
  release(id: string): void {
    const r = this.byId.get(id);
    if (r && r.availableInstanceCount < r.totalInstanceCount) r.availableInstanceCount++;
  }

  private slot(r: CapacityReservationInfo | undefined, id: string, now: number, targeted: boolean): ReservationSlot {
    return {
      id,
      targeted,
      available: () => (r && this.current(r, now).state === 'active' ? r.availableInstanceCount : 0),
      take: () => {
        if (r && r.availableInstanceCount > 0) r.availableInstanceCount--;
      },
    };
  }

  // A reservation past its end date is expired (EC2 moves it there on its own).
  private current(r: CapacityReservationInfo, now: number): CapacityReservationInfo {
    if (r.state === 'active' && r.endDate !== undefined && r.endDate.getTime() <= now) r.state = 'expired';
    return r;
  }
}
