/**
 * Drift and expiration end to end (embedded API server, every controller, fake cloud): a NodePool template
 * change marks its NodeClaims Drifted and rolls them replacement first; an expired NodeClaim is deleted.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Annotations, ConditionTypes } from '../../src/api/index.js';
import { minimalNodePool } from '../../src/api/fixtures/index.js';
import { nodePoolHash, nodePoolHashVersion } from '../../src/controllers/nodepool/hash/nodepool-hash.js';
import { Resources } from '../../src/kube/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../../src/state/informers.js';
import { bringUp, eventually, launchedClaim, nodeClaims, runPod, startCluster, type Cluster } from './harness.js';

let c: Cluster;
beforeEach(async () => {
  c = await startCluster();
});
afterEach(async () => {
  await c.stop();
});

const condition = (nc: StoredNodeClaim | undefined, type: string): string | undefined =>
  nc?.status?.conditions?.find((x) => x.type === type && x.status === 'True')?.reason;

async function get(name: string): Promise<StoredNodeClaim | undefined> {
  return c.client.get<StoredNodeClaim>(Resources.nodeClaims, { name }).catch(() => undefined);
}

/** A running node of `pool` launched from a NodeClaim carrying the pool's current hash. */
async function runningNode(
  pool: StoredNodePool,
  spec: Partial<StoredNodeClaim['spec']> = {},
): Promise<StoredNodeClaim> {
  await c.client.create<StoredNodeClaim>(Resources.nodeClaims, {
    metadata: {
      name: 'old',
      labels: { 'karpenter.sh/nodepool': 'default' },
      annotations: {
        [Annotations.nodePoolHash]: nodePoolHash(pool),
        [Annotations.nodePoolHashVersion]: nodePoolHashVersion,
      },
    },
    spec: {
      nodeClassRef: pool.spec.template.spec.nodeClassRef,
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['c.4x'] }],
      ...spec,
    },
  } as StoredNodeClaim);
  const launched = await launchedClaim(c, 'old');
  await runPod(c, 'web-1', 'node-old', 2);
  await bringUp(c, launched, 'node-old');
  await eventually(c, async () => (condition(await get('old'), ConditionTypes.initialized) ? true : undefined), {
    stepMs: 200,
  });
  return launched;
}

describe('drift and expiration (e2e)', () => {
  it('a NodePool template change marks the NodeClaim Drifted and replaces it, replacement first', async () => {
    const pool = minimalNodePool() as unknown as StoredNodePool;
    pool.spec.disruption = { consolidateAfter: 'Never', consolidationPolicy: 'WhenEmpty', budgets: [{ nodes: '1' }] };
    const stored = await c.client.create<StoredNodePool>(Resources.nodePools, pool);
    await runningNode(stored);
    expect(condition(await get('old'), ConditionTypes.drifted)).toBeUndefined();

    const fresh = await c.client.get<StoredNodePool>(Resources.nodePools, { name: 'default' });
    await c.client.update<StoredNodePool>(Resources.nodePools, {
      ...fresh,
      spec: { ...fresh.spec, template: { ...fresh.spec.template, metadata: { labels: { team: 'blue' } } } },
    });
    await eventually(
      c,
      async () => (condition(await get('old'), ConditionTypes.drifted) === 'NodePoolDrifted' ? true : undefined),
      { stepMs: 1_000 },
    );

    const replacement = await eventually(
      c,
      async () => (await nodeClaims(c)).find((n) => n.metadata.name !== 'old' && n.status?.providerID),
      { stepMs: 1_000 },
    );
    expect(replacement.metadata.labels?.['team']).toBe('blue');
    expect((await get('old'))?.metadata.deletionTimestamp).toBeUndefined();
    await new Promise((r) => setTimeout(r, 200));
    const launched = (await get(replacement.metadata.name ?? '')) ?? replacement;
    await bringUp(c, launched, 'node-new');
    await eventually(
      c,
      async () =>
        (await get('old'))?.metadata.deletionTimestamp !== undefined || (await get('old')) === undefined
          ? true
          : undefined,
      { stepMs: 1_000 },
    );
    const metric = async (): Promise<string> =>
      c.operator.context.metrics.registry.getSingleMetricAsString('karpenter_voluntary_disruption_decisions_total');
    await eventually(c, async () => (/decision="replace",reason="drifted"/.test(await metric()) ? true : undefined));
  });

  it('an expired NodeClaim is deleted', async () => {
    const pool = minimalNodePool() as unknown as StoredNodePool;
    pool.spec.disruption = { consolidateAfter: 'Never', consolidationPolicy: 'WhenEmpty', budgets: [{ nodes: '0' }] };
    const stored = await c.client.create<StoredNodePool>(Resources.nodePools, pool);
    await runningNode(stored, { expireAfter: '2h' });
    c.clock.advance(60 * 60_000);
    await new Promise((r) => setTimeout(r, 200));
    expect((await get('old'))?.metadata.deletionTimestamp).toBeUndefined();
    // Budgets do not hold expiration back (Karpenter v1): a budget of 0 is set above.
    await eventually(
      c,
      async () =>
        (await get('old'))?.metadata.deletionTimestamp !== undefined || (await get('old')) === undefined
          ? true
          : undefined,
      { stepMs: 5 * 60_000 },
    );
  });
});
