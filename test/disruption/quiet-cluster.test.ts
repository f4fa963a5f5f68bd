import { describe, expect, it } from 'vitest';
import { ConsolidatedStateMaxAgeMs } from '../../src/controllers/disruption/pass-cache.js';
import { QuietCluster } from '../../src/controllers/disruption/quiet-cluster.js';
import { catalog, node, pod, pool, view } from '../../src/controllers/disruption/testing/cluster.js';
import type { Node } from '../../src/kube/index.js';
import type { ClusterInformers } from '../../src/state/informers.js';

const types = catalog();
const start = 3_600_000;

type Update = (o: unknown, n: unknown) => void;

/** Informers that only deliver the events a test fires (the shortcut only subscribes to them). */
function informers(): {
  informers: ClusterInformers;
  fire: () => void;
  updateNode: (o: Node, n: Node) => void;
} {
  const handlers = new Map<string, Update[]>();
  const all = Object.fromEntries(
    ['nodes', 'pods', 'nodeClaims', 'nodePools'].map((k) => [
      k,
      { on: (h: { update?: Update }) => handlers.set(k, [...(handlers.get(k) ?? []), h.update ?? (() => undefined)]) },
    ]),
  );
  return {
    informers: all as unknown as ClusterInformers,
    fire: () => handlers.get('pods')?.forEach((h) => h({}, {})),
    updateNode: (o, n) => handlers.get('nodes')?.forEach((h) => h(o, n)),
  };
}

/** A registered node as the kubelet posts it: Ready, with its heartbeat at `at`. */
function kubeletNode(at: string, ready: 'True' | 'Unknown' = 'True'): Node {
  const condition = (type: string, status: 'True' | 'False' | 'Unknown') => ({
    type,
    status,
    lastHeartbeatTime: at,
    lastTransitionTime: '2026-01-01T00:00:00Z',
    reason: 'KubeletReady',
  });
  return {
    metadata: { name: 'a', resourceVersion: at, labels: { 'karpenter.sh/nodepool': 'default' } },
    spec: { providerID: 'fake:///a' },
    status: { conditions: [condition('MemoryPressure', 'False'), condition('Ready', ready)] },
  };
}

const settledAt = (lastPodEventTime: number) =>
  node({ name: 'a', type: 'c.2x', pods: [pod({ cpu: 2 })], extra: { lastPodEventTime } }, types);

describe('the quiet-cluster shortcut', () => {
  it('skips passes after a fruitless one until an informer delivers a change', () => {
    const { informers: inf, fire } = informers();
    const q = new QuietCluster(inf);
    const generation = q.current();
    q.fruitless(view({ types, nodes: [settledAt(0)], now: start }), generation);
    expect(q.unchanged(start + 10_000)).toBe(true);
    fire();
    expect(q.unchanged(start + 20_000)).toBe(false);
  });

  it("does not count a node's status heartbeat as a change, but does count its readiness changing", () => {
    const { informers: inf, updateNode } = informers();
    const q = new QuietCluster(inf);
    q.fruitless(view({ types, nodes: [settledAt(0)], now: start }), q.current());
    updateNode(kubeletNode('2026-01-01T00:05:00Z'), kubeletNode('2026-01-01T00:10:00Z'));
    expect(q.unchanged(start + 10_000)).toBe(true);
    updateNode(kubeletNode('2026-01-01T00:10:00Z'), kubeletNode('2026-01-01T00:10:40Z', 'Unknown'));
    expect(q.unchanged(start + 20_000)).toBe(false);
  });

  it('ignores a change delivered while the pass was being computed', () => {
    const { informers: inf, fire } = informers();
    const q = new QuietCluster(inf);
    const generation = q.current();
    fire();
    q.fruitless(view({ types, nodes: [settledAt(0)], now: start }), generation);
    expect(q.unchanged(start + 10_000)).toBe(false);
  });

  it('looks again when a node reaches its consolidateAfter, and after five minutes in any case', () => {
    const { informers: inf } = informers();
    const q = new QuietCluster(inf);
    const pools = [pool({ consolidateAfterMs: 60_000 })];
    q.fruitless(view({ types, pools, nodes: [settledAt(start - 30_000)], now: start }), q.current());
    expect(q.unchanged(start + 29_000)).toBe(true);
    expect(q.unchanged(start + 30_000)).toBe(false);
    q.fruitless(view({ types, pools, nodes: [settledAt(0)], now: start }), q.current());
    expect(q.unchanged(start + ConsolidatedStateMaxAgeMs - 1)).toBe(true);
    expect(q.unchanged(start + ConsolidatedStateMaxAgeMs)).toBe(false);
  });

  it('never holds a view with pending pods or a scheduled budget, which change with the clock alone', () => {
    const { informers: inf } = informers();
    const q = new QuietCluster(inf);
    q.fruitless(view({ types, nodes: [settledAt(0)], pending: [pod({ cpu: 64 })], now: start }), q.current());
    expect(q.unchanged(start + 10_000)).toBe(false);
    const scheduled = [pool({ budgets: [{ nodes: '0', schedule: '@daily', duration: '10m' }] })];
    q.fruitless(view({ types, pools: scheduled, nodes: [settledAt(0)], now: start }), q.current());
    expect(q.unchanged(start + 10_000)).toBe(false);
  });
});
