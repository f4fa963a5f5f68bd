/**
 * Karpenter's Grafana dashboards against Tenon's /metrics, series by series: a node's whole life (a pod provisions
 * it, starts on it, goes away; emptiness consolidation removes the node) is scraped while the node serves and once
 * it is gone, and every series the four dashboards query must be served with the labels their queries use. The
 * series no Karpenter v1.15 writes either (node-exporter's, the v0.x allocation controller's) must stay absent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Resources, type Pod } from '../../src/kube/index.js';
import { karpenterDashboards, type DashboardSeries } from '../fixtures/karpenter-dashboards.js';
import {
  scrapeMetrics,
  conditionOf,
  createNodePool,
  createUnschedulablePod,
  eventually,
  nodeClaims,
  registerNodeFor,
  startHarness,
  type Harness,
} from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.stop();
});

/** Each sample line of an exposition: its series name and label names. */
function seriesOf(body: string): Array<{ series: string; labels: string[] }> {
  const out: Array<{ series: string; labels: string[] }> = [];
  for (const line of body.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? \S+$/.exec(line);
    if (!m) continue;
    out.push({ series: m[1] ?? '', labels: [...(m[2] ?? '').matchAll(/([a-zA-Z0-9_]+)="/g)].map((l) => l[1] ?? '') });
  }
  return out;
}

const scrape = (): Promise<string> => scrapeMetrics(h);

/** Whether some sample of the series carries every label the dashboard's queries use. */
function served(samples: ReturnType<typeof seriesOf>, q: DashboardSeries): boolean {
  return samples.some((s) => s.series === q.series && q.labels.every((l) => s.labels.includes(l)));
}

/** A node's life: provisioned for a pod that starts on it, then emptied and consolidated away. */
async function nodeLife(): Promise<{ serving: string; gone: string }> {
  await createNodePool(h, 'default', {
    limits: { cpu: '100', memory: '400Gi' },
    disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: '0s', budgets: [{ nodes: '100%' }] },
  });
  await createUnschedulablePod(
    h,
    'web-1',
    { cpu: '1', memory: '1Gi' },
    {},
    {
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d8f', uid: 'u1' }],
    },
  );
  const nc = await eventually(h, 'a launched NodeClaim', async () =>
    (await nodeClaims(h)).find((c) => c.status?.providerID),
  );
  const node = await registerNodeFor(h, nc);
  const nodeName = node.metadata.name ?? '';
  await eventually(h, 'the NodeClaim initialized', async () =>
    (await nodeClaims(h)).some((c) => conditionOf(c, 'Initialized')?.status === 'True'),
  );
  await h.client.call('bind web-1', {
    method: 'POST',
    path: '/api/v1/namespaces/default/pods/web-1/binding',
    body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web-1' }, target: { kind: 'Node', name: nodeName } },
  });
  const readyAt = new Date(h.clock.now()).toISOString();
  await h.client.patch(
    Resources.pods,
    { name: 'web-1', namespace: 'default' },
    { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: readyAt }] } },
    { subresource: 'status' },
  );
  await eventually(h, 'the pod seen Running on its node', () => {
    const p: Pod | undefined = h.operator.context.informers.pods.cache.get('default/web-1');
    return p?.status?.phase === 'Running' && p.spec.nodeName === nodeName;
  });
  // A DaemonSet's pod: without one a node has no daemon totals (nor has it in Karpenter).
  await h.client.create<Pod>(Resources.pods, {
    metadata: {
      name: 'agent-x',
      namespace: 'default',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'd1' }],
    },
    spec: { nodeName, containers: [{ name: 'a', image: 'a', resources: { requests: { cpu: '100m' } } }] },
  });
  await eventually(h, 'the DaemonSet pod seen', () => h.operator.context.informers.pods.cache.get('default/agent-x'));
  const serving = await scrape();
  await h.client.delete(Resources.pods, { name: 'web-1', namespace: 'default' });
  await eventually(h, 'the empty node consolidated away', async () => (await nodeClaims(h)).length === 0, {
    advanceMs: 5_000,
  });
  return { serving, gone: await scrape() };
}

describe("Karpenter's dashboards against /metrics", () => {
  it('serves every series they query with the labels their queries use', async () => {
    const { serving, gone } = await nodeLife();
    const samples = [...seriesOf(serving), ...seriesOf(gone)];
    const missing = karpenterDashboards.flatMap((d) =>
      d.series.filter((q) => !served(samples, q)).map((q) => `${d.title}: ${q.series}{${q.labels.join(',')}}`),
    );
    expect(missing).toEqual([]);
    const foreign = karpenterDashboards
      .flatMap((d) => d.foreign)
      .filter((q) => samples.some((s) => s.series === q.series));
    expect(foreign).toEqual([]);
  }, 60_000);
});
