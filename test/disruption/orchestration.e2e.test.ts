/**
 * Orchestration end to end, against the embedded API server with every controller running: a consolidation
 * launches its replacement first, taints and deletes the candidate only once the replacement is initialized,
 * and a replacement that fails un-marks and un-taints the candidate.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConditionTypes, DisruptedTaint } from '../../src/api/index.js';
import { minimalNodePool } from '../../src/api/fixtures/index.js';
import { Resources, type KubeObject, type Node } from '../../src/kube/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../../src/state/informers.js';
import {
  bringUp,
  eventually,
  isInitialized,
  launchedClaim,
  nodeClaims,
  runPod,
  startCluster,
  type Cluster,
} from './harness.js';

let c: Cluster;
beforeEach(async () => {
  c = await startCluster();
});
afterEach(async () => {
  await c.stop();
});

const tainted = (n: Node): boolean => (n.spec?.taints ?? []).some((t) => t.key === DisruptedTaint.key);

/** A NodePool that consolidates at once (or, given 'Never', not at all), and one oversized node running a small pod. */
async function oversizedNode(consolidateAfter = '0s'): Promise<{ nc: StoredNodeClaim; node: Node }> {
  const pool = minimalNodePool() as unknown as StoredNodePool;
  pool.spec.disruption = {
    consolidateAfter,
    consolidationPolicy: 'WhenEmptyOrUnderutilized',
    budgets: [{ nodes: '100%' }],
  };
  await c.client.create(Resources.nodePools, pool);
  const created = await c.client.create<StoredNodeClaim>(Resources.nodeClaims, {
    metadata: { name: 'big', labels: { 'karpenter.sh/nodepool': 'default' } },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['c.16x'] }],
    },
  } as StoredNodeClaim);
  const launched = await launchedClaim(c, created.metadata.name ?? '');
  // The pod is bound first, so the node is never empty (emptiness would take it instead).
  await runPod(c, 'web-1', 'node-big', 1);
  const node = await bringUp(c, launched, 'node-big');
  await eventually(
    c,
    async () => isInitialized(await c.client.get<StoredNodeClaim>(Resources.nodeClaims, { name: 'big' })) || undefined,
    { stepMs: 200 },
  ).catch(async (e: unknown) => {
    const nc = await c.client.get<StoredNodeClaim>(Resources.nodeClaims, { name: 'big' }).catch(() => undefined);
    const n = await c.client.get<Node>(Resources.nodes, { name: 'node-big' }).catch(() => undefined);
    throw new Error(
      `${String(e)}: ${JSON.stringify(nc?.status)} ${JSON.stringify(n?.spec)} ${JSON.stringify(n?.metadata.labels)}`,
    );
  });
  return { nc: launched, node };
}

async function replacement(): Promise<StoredNodeClaim> {
  return eventually(c, async () => (await nodeClaims(c)).find((n) => n.metadata.name !== 'big'), {
    stepMs: 1_000,
    timeoutMs: 15_000,
  });
}

async function events(obj: string): Promise<string[]> {
  const list = await c.client.list<
    KubeObject & { reason?: string; message?: string; involvedObject?: { name?: string } }
  >(Resources.events, { namespace: 'default' });
  return list.items.filter((e) => e.involvedObject?.name === obj).map((e) => `${e.reason ?? ''}: ${e.message ?? ''}`);
}

describe('disruption orchestration (e2e)', () => {
  it('launches the replacement first; taints and deletes the candidate only once it is initialized', async () => {
    await oversizedNode();
    const repl = await replacement();
    expect(repl.spec.requirements.find((r) => r.key === 'node.kubernetes.io/instance-type')?.values).toEqual([
      'c.2x',
      'c.4x',
      'c.8x',
    ]);
    // The candidate is marked but neither tainted nor deleted while the replacement is not initialized.
    c.clock.advance(5_000);
    await new Promise((r) => setTimeout(r, 200));
    const waiting = await c.client.get<StoredNodeClaim>(Resources.nodeClaims, { name: 'big' });
    expect(waiting.metadata.deletionTimestamp).toBeUndefined();
    expect(waiting.status?.conditions?.find((x) => x.type === ConditionTypes.disruptionReason)?.reason).toBe(
      'Underutilized',
    );
    expect(tainted(await c.client.get<Node>(Resources.nodes, { name: 'node-big' }))).toBe(false);

    const launched = await launchedClaim(c, repl.metadata.name ?? '');
    await bringUp(c, launched, 'node-small');
    const gone = await eventually(
      c,
      async () => {
        const nc = await c.client.get<StoredNodeClaim>(Resources.nodeClaims, { name: 'big' }).catch(() => undefined);
        return nc === undefined || nc.metadata.deletionTimestamp ? true : undefined;
      },
      { stepMs: 1_000 },
    );
    expect(gone).toBe(true);
    const big = await c.client.get<Node>(Resources.nodes, { name: 'node-big' }).catch(() => undefined);
    if (big) expect(tainted(big)).toBe(true);
    expect((await events('node-big')).join('\n')).toMatch(/DisruptionLaunching: Launching NodeClaim/);
    // The line users grep for, once, in Karpenter's shape: the reason, the decision and what it touches.
    const disrupting = c.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.message === 'disrupting node(s)');
    expect(disrupting).toHaveLength(1);
    expect(disrupting[0]).toMatchObject({
      level: 'INFO',
      controller: 'disruption.queue',
      reason: 'underutilized',
      decision: 'replace',
      'disrupted-node-count': 1,
      'replacement-node-count': 1,
      'pod-count': 1,
      'disrupted-nodes': [
        {
          Node: { name: 'node-big' },
          NodeClaim: { name: 'big' },
          'capacity-type': 'on-demand',
          'instance-type': 'c.16x',
        },
      ],
    });
    expect(disrupting[0]?.['command-id']).toMatch(/^command-/);
    // What a user graphing disruptions sees: the NodePool's policy and the termination mode on each counter.
    const disruptionLabels = {
      reason: 'underutilized',
      nodepool: 'default',
      capacity_type: 'on-demand',
      consolidation_policy: 'when_empty_or_underutilized',
      termination_mode: 'graceful',
    };
    const registry = c.operator.context.metrics.registry;
    const valueOf = async (name: string): Promise<number | undefined> =>
      (await registry.getSingleMetric(name)?.get())?.values.find(
        (v) => JSON.stringify(v.labels) === JSON.stringify(disruptionLabels),
      )?.value;
    expect(await valueOf('karpenter_nodeclaims_disrupted_total')).toBe(1);
    expect(await valueOf('karpenter_pods_disruption_initiated_total')).toBe(1);
    const decisions = await registry.getSingleMetricAsString(
      'karpenter_voluntary_disruption_decisions_by_nodepool_total',
    );
    expect(decisions).toContain(
      'karpenter_voluntary_disruption_decisions_by_nodepool_total{nodepool="default",decision="replace",reason="underutilized",consolidation_type="single"} 1',
    );
  });

  it('a failed replacement un-marks and un-taints the candidate and leaves it running', async () => {
    await oversizedNode();
    const repl = await replacement();
    // As if an earlier attempt had tainted it already.
    const node = await c.client.get<Node>(Resources.nodes, { name: 'node-big' });
    await c.client.update<Node>(Resources.nodes, {
      ...node,
      spec: {
        ...node.spec,
        taints: [...(node.spec?.taints ?? []), { key: DisruptedTaint.key, effect: DisruptedTaint.effect }],
      },
    });
    await c.client.delete(Resources.nodeClaims, { name: repl.metadata.name ?? '' });
    // No time passes here: the queue reacts to the deletion itself, and a later pass could decide again.
    await eventually(c, async () => {
      const n = await c.client.get<Node>(Resources.nodes, { name: 'node-big' });
      return tainted(n) ? undefined : true;
    });
    const big = await c.client.get<StoredNodeClaim>(Resources.nodeClaims, { name: 'big' });
    expect(big.metadata.deletionTimestamp).toBeUndefined();
    expect(big.status?.conditions?.some((x) => x.type === ConditionTypes.disruptionReason)).toBe(false);
    expect((await events('node-big')).join('\n')).toMatch(
      /DisruptionBlocked: Abandoned disruption.*was deleted before it initialized|being deleted/,
    );
    const failures = await c.operator.context.metrics.registry.getSingleMetricAsString(
      'karpenter_voluntary_disruption_queue_failures_total',
    );
    expect(failures).toContain(
      'karpenter_voluntary_disruption_queue_failures_total{decision="replace",reason="underutilized",consolidation_type="single"} 1',
    );
  });

  it('removes the taint and DisruptionReason a stopped process left on a node no command holds', async () => {
    const { nc } = await oversizedNode('Never');
    // What a process killed mid-command leaves behind: the candidate tainted and marked, and no command in memory.
    const node = await c.client.get<Node>(Resources.nodes, { name: 'node-big' });
    const taints = [...(node.spec?.taints ?? []), { key: DisruptedTaint.key, effect: DisruptedTaint.effect }];
    await c.client.patch<Node>(Resources.nodes, { name: 'node-big' }, { spec: { taints } });
    const marked = await c.client.get<StoredNodeClaim>(Resources.nodeClaims, { name: nc.metadata.name ?? '' });
    await c.client.patch<StoredNodeClaim>(
      Resources.nodeClaims,
      { name: nc.metadata.name ?? '' },
      {
        status: {
          conditions: [
            ...(marked.status?.conditions ?? []),
            {
              type: ConditionTypes.disruptionReason,
              status: 'True',
              reason: 'Drifted',
              message: 'Disrupting: Drifted',
              lastTransitionTime: new Date(c.clock.now()).toISOString(),
            },
          ],
        },
      },
      { subresource: 'status' },
    );
    const cleared = await eventually(
      c,
      async () => {
        const n = await c.client.get<Node>(Resources.nodes, { name: 'node-big' });
        const claim = await c.client.get<StoredNodeClaim>(Resources.nodeClaims, { name: nc.metadata.name ?? '' });
        const reason = claim.status?.conditions?.some((x) => x.type === ConditionTypes.disruptionReason);
        return tainted(n) || reason ? undefined : claim;
      },
      { stepMs: 1_000 },
    );
    expect(cleared.metadata.deletionTimestamp).toBeUndefined();
  });
});
