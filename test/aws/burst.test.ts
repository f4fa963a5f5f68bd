import { describe, expect, it } from 'vitest';
import { nodeClaim, nodeClass, world } from './setup.js';

describe('a burst of NodeClaims against the simulated EC2', () => {
  it('launches 1,000 concurrent creates within the API rate limits', async () => {
    const w = world();
    await w.apply(nodeClass());
    const requirements = [
      { key: 'karpenter.k8s.aws/instance-family', operator: 'In' as const, values: ['m5', 'c5', 'r5', 'm6i', 'c6i'] },
    ];
    const claims = Array.from({ length: 1000 }, () => nodeClaim(requirements, { cpu: '1', memory: '2Gi' }));
    const created = await Promise.all(claims.map((c) => w.provider.create(c)));
    expect(new Set(created.map((c) => c.status?.providerID)).size).toBe(1000);
    // The background tagger paces CreateTags; let the simulated clock run until it is done.
    for (let i = 0; i < 400 && w.provider.tagger.pending > 0; i++) {
      w.clock.advance(1_000);
      await new Promise((r) => setImmediate(r));
    }
    expect(w.provider.tagger.pending).toBe(0);
    expect(w.provider.tagger.failures).toEqual([]);
    const stats = w.sim.apiStats();
    expect(stats.totalThrottled).toBe(0);
    expect(stats.calls.CreateFleet ?? 0).toBeLessThan(10);
    expect(stats.calls.DescribeInstanceTypes).toBe(1);
    expect(w.sim.listInstances().every((i) => i.tags['karpenter.sh/nodeclaim'] !== undefined)).toBe(true);
  });

  it('surfaces injected throttling as a typed create error without launching', async () => {
    const w = world();
    await w.apply(nodeClass());
    w.sim.throttleNext('CreateFleet');
    const err: unknown = await w.provider
      .create(nodeClaim([{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large'] }]))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'CreateError', reason: 'Throttled' });
    expect(w.sim.listInstances()).toEqual([]);
  });
});
