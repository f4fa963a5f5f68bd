import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createNodePool,
  createUnschedulablePod,
  eventually,
  nodeClaims,
  startHarness,
  type Harness,
} from './harness.js';

describe('failed writes are retried by the work queue', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.stop();
  });

  it('a NodeClaim create refused by the API server is retried once the API heals, with no other event', async () => {
    await createNodePool(h, 'default');
    const heal = h.server.faults.addError({ verb: 'create', resource: 'nodeclaims', code: 500, rate: 1 });
    for (const i of [1, 2]) await createUnschedulablePod(h, `web-${i}`, { cpu: '1', memory: '1Gi' });
    await eventually(h, 'a refused NodeClaim create', () =>
      h.logs.some((l) => l.includes('creating nodeclaim failed')),
    );
    expect(await nodeClaims(h)).toHaveLength(0);
    heal();
    // Nothing else changes: no pod, NodePool or NodeClaim event arrives to start another pass.
    const made = await eventually(
      h,
      'the NodeClaims created on retry',
      async () => {
        const all = await nodeClaims(h);
        return all.length > 0 && all;
      },
      { advanceMs: 1000 },
    );
    expect(made.length).toBeGreaterThan(0);
  });
});
