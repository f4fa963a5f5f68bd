/**
 * Why a node stays, as a user sees it (end to end, every controller running): consolidation that finds no cheaper
 * way reports Karpenter's `Unconsolidatable` event on the Node and its NodeClaim, and a decision dropped when it
 * is re-validated after the consolidation TTL says so on each candidate.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { minimalNodePool } from '../../src/api/fixtures/index.js';
import { DisruptionController } from '../../src/controllers/disruption/controller.js';
import { Resources, type KubeObject } from '../../src/kube/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../../src/state/informers.js';
import { bringUp, eventually, isInitialized, launchedClaim, runPod, startCluster, type Cluster } from './harness.js';

let c: Cluster;
beforeEach(async () => {
  c = await startCluster();
});
afterEach(async () => {
  await c.stop();
});

/** A NodePool that consolidates at once, and one initialized node of `type` running a pod of `cpu` cores. */
async function managedNode(name: string, type: string, cpu: number): Promise<void> {
  const pool = minimalNodePool() as unknown as StoredNodePool;
  pool.spec.disruption = {
    consolidateAfter: '0s',
    consolidationPolicy: 'WhenEmptyOrUnderutilized',
    budgets: [{ nodes: '100%' }],
  };
  await c.client.create(Resources.nodePools, pool);
  await c.client.create<StoredNodeClaim>(Resources.nodeClaims, {
    metadata: { name, labels: { 'karpenter.sh/nodepool': 'default' } },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: [type] }],
    },
  } as StoredNodeClaim);
  const launched = await launchedClaim(c, name);
  await runPod(c, `${name}-web`, `node-${name}`, cpu);
  await bringUp(c, launched, `node-${name}`);
  await eventually(
    c,
    async () => isInitialized(await c.client.get<StoredNodeClaim>(Resources.nodeClaims, { name })) || undefined,
    { stepMs: 200 },
  );
}

/** `reason: message` of the events about the object named `obj` of `kind`. */
async function events(kind: string, obj: string): Promise<string[]> {
  const list = await c.client.list<
    KubeObject & { reason?: string; message?: string; involvedObject?: { kind?: string; name?: string } }
  >(Resources.events, { namespace: 'default' });
  return list.items
    .filter((e) => e.involvedObject?.name === obj && e.involvedObject.kind === kind)
    .map((e) => `${e.reason ?? ''}: ${e.message ?? ''}`);
}

function disruptionController(): DisruptionController {
  const dc = c.operator.controllers.find((x): x is DisruptionController => x instanceof DisruptionController);
  if (!dc) throw new Error('no disruption controller');
  return dc;
}

describe('disruption events (e2e)', () => {
  it('a node nothing cheaper can replace says so on the Node and the NodeClaim', async () => {
    await managedNode('small', 'c.2x', 1);
    const said = /^Unconsolidatable: Can't replace with a cheaper node$/;
    await eventually(
      c,
      async () => ((await events('Node', 'node-small')).some((e) => said.test(e)) ? true : undefined),
      { stepMs: 1_000 },
    );
    expect((await events('NodeClaim', 'small')).some((e) => said.test(e))).toBe(true);
  });

  it('a decision the re-validation drops is reported on its candidate, with the cause', async () => {
    let decided = false;
    disruptionController().onPass = (d) => {
      decided ||= d.command !== undefined;
    };
    await managedNode('big', 'c.16x', 1);
    await eventually(c, () => (decided ? true : undefined), { stepMs: 500 });
    // Within the consolidation TTL the node fills up: the smaller replacement no longer holds its pods.
    await runPod(c, 'big-batch', 'node-big', 10);
    const said =
      /^Unconsolidatable: Abandoned single-node consolidation: delete 1 node \(node-big\) and replace with c\.2x.* after re-validation: not all pods would schedule, default\/big-batch => /;
    await eventually(c, async () => ((await events('Node', 'node-big')).some((e) => said.test(e)) ? true : undefined), {
      stepMs: 1_000,
    }).catch(async (e: unknown) => {
      throw new Error(`${String(e)}: ${(await events('Node', 'node-big')).join(' | ')}`);
    });
    expect((await events('NodeClaim', 'big')).some((e) => said.test(e))).toBe(true);
    const nc = await c.client.get<StoredNodeClaim>(Resources.nodeClaims, { name: 'big' });
    expect(nc.metadata.deletionTimestamp).toBeUndefined();
    const failed = await c.operator.context.metrics.registry.getSingleMetricAsString(
      'karpenter_voluntary_disruption_failed_validations_total',
    );
    expect(failed).toMatch(
      /karpenter_voluntary_disruption_failed_validations_total\{consolidation_type="single"\} [1-9]/,
    );
  });
});
