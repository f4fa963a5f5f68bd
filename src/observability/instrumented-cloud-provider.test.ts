import { describe, expect, it } from 'vitest';
import { FakeCloudProvider, fakeInstanceType } from '../cloudprovider/fake/index.js';
import { FakeClock } from '../clock/index.js';
import { instrumentCloudProvider } from './instrumented-cloud-provider.js';
import { Metrics } from './metrics.js';

describe('the instrumented cloud provider', () => {
  it('times each call and counts failures by the typed error, with Karpenter metric names', async () => {
    const metrics = new Metrics();
    const inner = new FakeCloudProvider({
      instanceTypes: [
        fakeInstanceType({
          name: 'm.large',
          cpu: 2,
          memoryGi: 8,
          offerings: [{ zone: 'a', capacityType: 'on-demand', price: 0.1 }],
        }),
      ],
    });
    const cp = instrumentCloudProvider(inner, metrics, new FakeClock(0));
    await cp.list();
    await expect(cp.get('fake:///nope')).rejects.toThrow();
    const text = await metrics.registry.metrics();
    expect(text).toMatch(
      /karpenter_cloudprovider_duration_seconds_count\{controller="",method="list",provider="fake"\} 1/,
    );
    expect(text).toMatch(
      /karpenter_cloudprovider_errors_total\{controller="",method="get",provider="fake",error="\w+"\} 1/,
    );
    expect(cp.repairPolicies()).toEqual(inner.repairPolicies());
  });
});
