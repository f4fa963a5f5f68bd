/**
 * settings.isolatedVPC: the Pricing API has no VPC endpoint, so the provider never calls it and prices on-demand
 * offerings from the list shipped with the release; spot prices still come from EC2 (as Karpenter does).
 */
import { describe, expect, it, vi } from 'vitest';
import { AwsCloudProvider } from '../../src/providers/aws/index.js';
import { generateUserData } from '../../src/providers/aws/bootstrap/index.js';
import { loadStaticOnDemandPrices, staticOnDemandPrices } from '../../src/providers/aws/pricing/static-prices.js';
import { cluster, nodeClass, nodePool, world } from './setup.js';

/** The simulated account, its Pricing API answering double the shipped prices so the two sources differ. */
async function provider(
  isolatedVpc: boolean,
): Promise<{ p: AwsCloudProvider; pricingCalls: () => number; spotCalls: () => number }> {
  const w = world();
  const published = await w.sim.getOnDemandPrices(w.sim.region);
  const doubled = Object.fromEntries(Object.entries(published).map(([k, v]) => [k, v * 2]));
  const pricing = vi.spyOn(w.sim, 'getOnDemandPrices').mockResolvedValue(doubled);
  const spot = vi.spyOn(w.sim, 'describeSpotPriceHistory');
  await w.apply(nodeClass());
  const p = new AwsCloudProvider({
    port: w.sim,
    clock: w.clock,
    cluster: { name: cluster, endpoint: 'https://demo.eks.example', caBundle: 'Y2E=' },
    kubernetesVersion: '1.32',
    getNodeClass: (name) => w.nodeClasses.get(name),
    userDataGenerator: generateUserData,
    isolatedVpc,
  });
  return { p, pricingCalls: () => pricing.mock.calls.length, spotCalls: () => spot.mock.calls.length };
}

function onDemandPrices(types: Awaited<ReturnType<AwsCloudProvider['getInstanceTypes']>>): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of types)
    for (const o of t.offerings) if (o.capacityType === 'on-demand' && !o.reservationId) out.set(t.name, o.price);
  return out;
}

describe('settings.isolatedVPC', () => {
  it('prices on-demand offerings from the shipped list and never calls the Pricing API', async () => {
    const { p, pricingCalls } = await provider(true);
    const types = await p.getInstanceTypes(nodePool());
    const shipped = loadStaticOnDemandPrices();
    const prices = onDemandPrices(types);
    expect(prices.size).toBeGreaterThan(100);
    for (const [name, price] of prices) expect(price, name).toBe(shipped.get(name));
    expect(pricingCalls()).toBe(0);
  });

  it('still prices spot offerings from EC2', async () => {
    const { p, spotCalls } = await provider(true);
    const types = await p.getInstanceTypes(nodePool());
    const m5 = types.find((t) => t.name === 'm5.large');
    const spot = m5?.offerings.filter((o) => o.capacityType === 'spot') ?? [];
    expect(spot.length).toBeGreaterThan(0);
    // The simulated market discounts spot below on-demand; the static list has no spot prices to offer.
    for (const o of spot) expect(o.price).toBeLessThan(loadStaticOnDemandPrices().get('m5.large') ?? 0);
    expect(spotCalls()).toBeGreaterThan(0);
  });

  it('without it, on-demand prices come from the Pricing API', async () => {
    const { p, pricingCalls } = await provider(false);
    const prices = onDemandPrices(await p.getInstanceTypes(nodePool()));
    const shipped = loadStaticOnDemandPrices();
    expect(prices.get('m5.large')).toBe((shipped.get('m5.large') ?? 0) * 2);
    expect(pricingCalls()).toBeGreaterThan(0);
  });

  it('leaves out of the list the types without a published price', () => {
    const list = staticOnDemandPrices(
      JSON.stringify({
        instanceTypes: [
          { name: 'm5.large', onDemandPriceUSD: 0.096 },
          { name: 'u-12tb1.metal', onDemandPriceUSD: null },
        ],
      }),
    );
    expect([...list]).toEqual([['m5.large', 0.096]]);
  });
});
