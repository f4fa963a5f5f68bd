/**
 * The capacity reservations an EC2NodeClass selects, as Karpenter's capacity reservation provider finds them: one
 * DescribeCapacityReservations per selector query (state `active` only), reused for a minute, expired ones dropped;
 * and how many instances each can still take: synced from EC2 whenever a query is loaded, counted down per launch and
 * up per termination in between, so a reservation that filled up is no longer offered before the next lookup.
 */
import type { CapacityReservationSelectorTerm } from '../../../api/index.js';
import type { Clock } from '../../../clock/index.js';
import { TtlCache } from '../cache/ttl-cache.js';
import { AwsApiError, type AwsPort, type CapacityReservationInfo, type Filter } from '../ports/index.js';
import { tagFilters } from '../nodeclass/selectors.js';

/** How long one query's reservations are reused (Karpenter polls reservations every minute). */
export const CapacityReservationTtlMs = 60_000;

/** One DescribeCapacityReservations call a selector term makes. */
export interface ReservationQuery {
  ids?: string[];
  filters: Filter[];
}

/**
 * The queries of the terms: an `id` term looks that reservation up; a term with tags or `instanceMatchCriteria`
 * filters by them (and by `ownerID` when given). Every query asks for `active` reservations only.
 */
export function reservationQueries(terms: readonly CapacityReservationSelectorTerm[]): ReservationQuery[] {
  const active: Filter = { name: 'state', values: ['active'] };
  const out: ReservationQuery[] = [];
  for (const term of terms) {
    if (term.id !== undefined) out.push({ ids: [term.id], filters: [active] });
    if (Object.keys(term.tags ?? {}).length === 0 && term.instanceMatchCriteria === undefined) continue;
    out.push({
      filters: [
        active,
        ...(term.ownerID === undefined ? [] : [{ name: 'owner-id', values: [term.ownerID] }]),
        ...tagFilters(term.tags),
        ...(term.instanceMatchCriteria === undefined
          ? []
          : [{ name: 'instance-match-criteria', values: [term.instanceMatchCriteria] }]),
      ],
    });
  }
  return out;
}

/** Finds reservations and tracks the instances each can still take. */
export class CapacityReservationProvider {
  private readonly port: AwsPort;
  private readonly clock: Clock;
  private readonly queries: TtlCache<CapacityReservationInfo[]>;
  private readonly available = new Map<string, number>();
  private sequence = 0;

  constructor(input: { port: AwsPort; clock: Clock }) {
    this.port = input.port;
    this.clock = input.clock;
    this.queries = new TtlCache(input.clock, CapacityReservationTtlMs);
  }

  /**
   * The active, unexpired reservations any term selects, by id; an id that does not exist selects nothing.
   * Throws the AwsApiError of a failed lookup.
   */
  async list(terms: readonly CapacityReservationSelectorTerm[]): Promise<CapacityReservationInfo[]> {
    const byId = new Map<string, CapacityReservationInfo>();
    for (const q of reservationQueries(terms)) {
      const found = await this.queries.getOrLoad(JSON.stringify(q), () => this.load(q));
      for (const r of found) byId.set(r.capacityReservationId, r);
    }
    const now = this.clock.now();
    return [...byId.values()]
      .filter((r) => r.endDate === undefined || r.endDate.getTime() > now)
      .sort((a, b) => a.capacityReservationId.localeCompare(b.capacityReservationId));
  }

  /** Instances the reservation can still take, as last synced and counted (0 when never seen). */
  availableCount(reservationId: string): number {
    return this.available.get(reservationId) ?? 0;
  }

  /** One instance launched into the reservation. */
  markLaunched(reservationId: string): void {
    const n = this.available.get(reservationId);
    if (n === undefined || n === 0) return;
    this.available.set(reservationId, n - 1);
    this.sequence++;
  }

  /** One instance of the reservation terminated (its slot comes back). */
  markTerminated(reservationId: string): void {
    const n = this.available.get(reservationId);
    if (n === undefined) return;
    this.available.set(reservationId, n + 1);
    this.sequence++;
  }

  /** EC2 said the reservation is full (ReservationCapacityExceeded): nothing is left until the next sync. */
  markExhausted(reservationId: string): void {
    if (this.available.get(reservationId) === 0) return;
    this.available.set(reservationId, 0);
    this.sequence++;
  }

  /** A number that changes whenever an available count does (instance type lists depend on them). */
  get seq(): number {
    return this.sequence;
  }

  private async load(q: ReservationQuery): Promise<CapacityReservationInfo[]> {
    let found: CapacityReservationInfo[];
    try {
      found = await this.port.describeCapacityReservations(q);
    } catch (e: unknown) {
      // EC2 answers NotFound for an id lookup of a reservation that does not exist: it selects nothing.
      if (q.ids !== undefined && AwsApiError.isKind(e, 'NotFound')) return [];
      throw e;
    }
    for (const r of found) {
      if (this.available.get(r.capacityReservationId) === r.availableInstanceCount) continue;
      this.available.set(r.capacityReservationId, r.availableInstanceCount);
      this.sequence++;
    }
    return found;
  }
}
