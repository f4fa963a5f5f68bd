/**
 * EC2's request-rate throttling as token buckets per API action (docs: "Request throttling for the
 * Amazon EC2 API"): non-mutating actions 100 tokens refilled at 20/s, mutating actions 50 at 5/s.
 */
import type { Clock } from '../../clock/index.js';

/** A token bucket's size and refill rate per second. */
export interface RateLimit {
  bucket: number;
  refillPerSecond: number;
}

/** Every port operation the simulated account throttles. */
export type SimAction =
  | 'DescribeSubnets'
  | 'DescribeSecurityGroups'
  | 'DescribeImages'
  | 'DescribeInstanceTypes'
  | 'DescribeInstanceTypeOfferings'
  | 'DescribeSpotPriceHistory'
  | 'DescribePlacementGroups'
  | 'DescribeCapacityReservations'
  | 'CreateLaunchTemplate'
  | 'DescribeLaunchTemplates'
  | 'DeleteLaunchTemplate'
  | 'CreateFleet'
  | 'DescribeInstances'
  | 'TerminateInstances'
  | 'CreateTags'
  | 'GetParameters'
  | 'GetInstanceProfile'
  | 'CreateInstanceProfile'
  | 'AddRoleToInstanceProfile'
  | 'RemoveRoleFromInstanceProfile'
  | 'DeleteInstanceProfile'
  | 'GetProducts';

const mutating: ReadonlySet<SimAction> = new Set<SimAction>([
  'CreateLaunchTemplate',
  'DeleteLaunchTemplate',
  'CreateFleet',
  'TerminateInstances',
  'CreateTags',
  'CreateInstanceProfile',
  'AddRoleToInstanceProfile',
  'RemoveRoleFromInstanceProfile',
  'DeleteInstanceProfile',
]);

/** The documented default limit of an action's category. */
export function defaultRateLimit(action: SimAction): RateLimit {
  return mutating.has(action) ? { bucket: 50, refillPerSecond: 5 } : { bucket: 100, refillPerSecond: 20 };
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Token buckets per action on the injected clock. */
export class RateLimiter {
  private readonly buckets = new Map<SimAction, Bucket>();
  private readonly clock: Clock;
  private readonly overrides: Partial<Record<SimAction, RateLimit>>;
  /** Throttled calls per action so far. */
  readonly throttled = new Map<SimAction, number>();
  /** Calls per action so far (throttled or not). */
  readonly calls = new Map<SimAction, number>();

  constructor(clock: Clock, overrides: Partial<Record<SimAction, RateLimit>> = {}) {
    this.clock = clock;
    this.overrides = overrides;
  }

  /** Takes a token for `action`; false when the bucket is empty (the call is throttled). */
  take(action: SimAction): boolean {
    this.calls.set(action, (this.calls.get(action) ?? 0) + 1);
    const limit = this.overrides[action] ?? defaultRateLimit(action);
    const now = this.clock.now();
    const b = this.buckets.get(action) ?? { tokens: limit.bucket, at: now };
    b.tokens = Math.min(limit.bucket, b.tokens + ((now - b.at) / 1000) * limit.refillPerSecond);
    b.at = now;
    this.buckets.set(action, b);
    if (b.tokens < 1) {
      this.throttled.set(action, (this.throttled.get(action) ?? 0) + 1);
      return false;
    }
    b.tokens -= 1;
    return true;
  }

  /** Total throttled calls over every action. */
  totalThrottled(): number {
    let n = 0;
    for (const v of this.throttled.values()) n += v;
    return n;
  }
}
