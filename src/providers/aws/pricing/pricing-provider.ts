/**
 * On-demand prices (Pricing GetProducts) and spot prices (DescribeSpotPriceHistory), cached with TTLs. In an
 * isolated VPC (settings.isolatedVPC) the Pricing API has no VPC endpoint: on-demand prices come from the list
 * shipped with the release and the Pricing API is never called; spot prices still come from EC2, as in Karpenter.
 */
import type { Clock } from '../../../clock/index.js';
import { TtlCache } from '../cache/ttl-cache.js';
import type { AwsPort } from '../ports/index.js';
import { loadStaticOnDemandPrices } from './static-prices.js';

/** On-demand prices are refreshed twice a day, spot prices every 15 minutes. */
export const OnDemandPriceTtlMs = 12 * 3_600_000;
/** How long spot prices are reused. */
export const SpotPriceTtlMs = 15 * 60_000;

/** Hourly prices by instance type, and by instance type and zone for spot. */
export class PricingProvider {
  private readonly port: AwsPort;
  private readonly clock: Clock;
  private readonly onDemandCache: TtlCache<ReadonlyMap<string, number>>;
  private readonly spotCache: TtlCache<ReadonlyMap<string, number>>;
  private readonly staticOnDemand: (() => ReadonlyMap<string, number>) | undefined;
  private staticPrices: ReadonlyMap<string, number> | undefined;

  /** `isolatedVpc` prices on-demand from `staticPrices` (default: the shipped list), read once on first use. */
  constructor(input: {
    port: AwsPort;
    clock: Clock;
    isolatedVpc?: boolean;
    staticPrices?: () => ReadonlyMap<string, number>;
  }) {
    this.port = input.port;
    this.clock = input.clock;
    this.staticOnDemand = input.isolatedVpc ? (input.staticPrices ?? loadStaticOnDemandPrices) : undefined;
    this.onDemandCache = new TtlCache(input.clock, OnDemandPriceTtlMs);
    this.spotCache = new TtlCache(input.clock, SpotPriceTtlMs);
  }

  /** On-demand price by type. */
  onDemand(): Promise<ReadonlyMap<string, number>> {
    if (this.staticOnDemand) {
      this.staticPrices ??= this.staticOnDemand();
      return Promise.resolve(this.staticPrices);
    }
    return this.onDemandCache.getOrLoad(
      'od',
      async () => new Map(Object.entries(await this.port.getOnDemandPrices(this.port.region))),
    );
  }

  /** Latest spot price by `type/zone`. */
  spot(): Promise<ReadonlyMap<string, number>> {
    return this.spotCache.getOrLoad('spot', async () => {
      // The latest point of the last day is the current price (EC2 only records changes).
      const points = await this.port.describeSpotPriceHistory({
        startTime: new Date(this.clock.now() - 24 * 3_600_000),
      });
      const latest = new Map<string, { price: number; at: number }>();
      for (const p of points) {
        const key = spotKey(p.instanceType, p.zone);
        const seen = latest.get(key);
        if (!seen || p.timestamp.getTime() >= seen.at) latest.set(key, { price: p.price, at: p.timestamp.getTime() });
      }
      return new Map([...latest].map(([k, v]) => [k, v.price]));
    });
  }
}

/** The spot map's key of a type in a zone. */
export function spotKey(instanceType: string, zone: string): string {
  return `${instanceType}/${zone}`;
}
