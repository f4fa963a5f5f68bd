/**
 * Offerings that recently failed with insufficient capacity, kept out of the instance types' available
 * offerings for 3 minutes (Karpenter's UnavailableOfferings cache).
 */
import type { CapacityType } from '../../../api/index.js';
import type { Clock } from '../../../clock/index.js';

/** How long an offering stays unavailable after an insufficient-capacity error. */
export const UnavailableOfferingTtlMs = 3 * 60 * 1000;

/** The unavailable-offerings cache; `seq` changes whenever its contents do, so dependants know to recompute. */
export class UnavailableOfferings {
  private readonly until = new Map<string, number>();
  private readonly clock: Clock;
  private sequence = 0;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** Marks an offering unavailable for the TTL. */
  mark(instanceType: string, zone: string, capacityType: CapacityType): void {
    this.until.set(key(instanceType, zone, capacityType), this.clock.now() + UnavailableOfferingTtlMs);
    this.sequence++;
  }

  /** True while the offering is marked. */
  isUnavailable(instanceType: string, zone: string, capacityType: CapacityType): boolean {
    const t = this.until.get(key(instanceType, zone, capacityType));
    return t !== undefined && t > this.clock.now();
  }

  /** A number that changes whenever an offering is marked or its mark expires. */
  get seq(): number {
    const now = this.clock.now();
    for (const [k, t] of this.until) {
      if (t <= now) {
        this.until.delete(k);
        this.sequence++;
      }
    }
    return this.sequence;
  }
}

function key(instanceType: string, zone: string, capacityType: string): string {
  return `${instanceType}/${zone}/${capacityType}`;
}
