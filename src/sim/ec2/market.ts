/**
 * The simulated market: which zones offer which types, how much capacity each pool (type × zone ×
 * capacity type) has, and a seeded spot price model. Spot prices are a stable discount of 50–80% off
 * on-demand per type and zone, drifting by up to ±5% from hour to hour — a model, not AWS's prices.
 */
import type { PurchaseOption } from '../../providers/aws/ports/index.js';
import { unitDraw } from './random.js';

/** The identity of one capacity pool. */
export interface PoolKey {
  instanceType: string;
  zone: string;
  capacityType: PurchaseOption;
}

const hourMs = 3_600_000;

/** The market of one simulated account. */
export class SimMarket {
  private readonly seed: number;
  private readonly remaining = new Map<string, number>();
  private readonly onDemand: ReadonlyMap<string, number>;
  /** Instances each pool holds before it runs out, unless set otherwise. */
  private readonly defaultPoolSize: number;
  private readonly zoneAvailability: number;

  constructor(input: {
    seed: number;
    onDemandPrices: ReadonlyMap<string, number>;
    defaultPoolSize: number;
    zoneAvailability: number;
  }) {
    this.seed = input.seed;
    this.onDemand = input.onDemandPrices;
    this.defaultPoolSize = input.defaultPoolSize;
    this.zoneAvailability = input.zoneAvailability;
  }

  /** True when `zone` offers `instanceType` (seeded; the first zone in the list always does). */
  offered(instanceType: string, zone: string, zoneIndex: number): boolean {
    return zoneIndex === 0 || unitDraw(this.seed, `offered/${instanceType}/${zone}`) < this.zoneAvailability;
  }

  /** The on-demand price, when the type has a public one. */
  onDemandPrice(instanceType: string): number | undefined {
    return this.onDemand.get(instanceType);
  }

  /** The spot price of a type in a zone during the hour containing `at`. */
  spotPrice(instanceType: string, zone: string, at: number): number | undefined {
    const od = this.onDemand.get(instanceType);
    if (od === undefined) return undefined;
    const discount = 0.5 + 0.3 * unitDraw(this.seed, `spot/${instanceType}/${zone}`);
    const hour = Math.floor(at / hourMs);
    const drift = 1 + 0.1 * (unitDraw(this.seed, `drift/${instanceType}/${zone}/${hour}`) - 0.5);
    return Math.round(od * (1 - discount) * drift * 1e5) / 1e5;
  }

  /** Instances the pool can still launch. */
  available(key: PoolKey): number {
    return this.remaining.get(poolId(key)) ?? this.defaultPoolSize;
  }

  /** Sets the pool's remaining capacity (0 makes every launch there fail with InsufficientInstanceCapacity). */
  setAvailable(key: PoolKey, count: number): void {
    this.remaining.set(poolId(key), Math.max(0, count));
  }

  /** Takes one instance's capacity; false when the pool is empty. */
  take(key: PoolKey): boolean {
    const left = this.available(key);
    if (left <= 0) return false;
    this.remaining.set(poolId(key), left - 1);
    return true;
  }

  /** Returns one instance's capacity to the pool (on termination). */
  release(key: PoolKey): void {
    this.remaining.set(poolId(key), this.available(key) + 1);
  }
}

function poolId(k: PoolKey): string {
  return `${k.instanceType}/${k.zone}/${k.capacityType}`;
}
