import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject, Node, Pod } from '../../src/kube/index.js';
import { SimResources } from '../../src/sim/world/resources.js';
import { machine, pods, startWorld, until, type SimHarness } from './harness.js';

let h: SimHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface CoreEvent extends KubeObject {
  reason?: string;
  count?: number;
  involvedObject?: { name?: string };
}

const nodeName = 'ip-a.us-west-2.compute.internal';

async function ready(world: SimHarness): Promise<boolean> {
  const nodes = (await world.client.list<Node>(SimResources.nodes)).items;
  return (
    nodes.length === 1 &&
    nodes.every(
      (n) =>
        (n.spec?.taints ?? []).length === 0 &&
        n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
    )
  );
}

/**
 * How many times the scheduler tried the pod and failed: FailedScheduling occurrences, counted events included. The
 * scheduler's events form a series whose count is written when it ends (6 minutes without a repeat) or every 30 min.
 */
async function failedAttempts(world: SimHarness, pod: string): Promise<number> {
  const events = (await world.client.list<CoreEvent>(SimResources.events, { namespace: 'default' })).items;
  return events
    .filter((e) => e.reason === 'FailedScheduling' && e.involvedObject?.name === pod)
    .reduce((n, e) => n + (e.count ?? 1), 0);
}

/** Changes the node's labels every 200 ms for 30 s. */
async function churn(world: SimHarness): Promise<void> {
  for (let i = 0; i < 150; i++) {
    await world.clock.busy(
      world.client.patch(SimResources.nodes, { name: nodeName }, { metadata: { labels: { churn: String(i) } } }),
    );
    await world.clock.advance(200);
  }
}

describe('simulated kube-scheduler retries', () => {
  it('backs an unschedulable pod off (1 s, doubling, at most 10 s) however often the cluster changes', async () => {
    // No 5-minute flush, so the pod's FailedScheduling series ends once the churn stops and its count is written.
    h = await startWorld({ machines: [machine('a')], scheduler: { unschedulableFlushMs: 3_600_000 } });
    const world = h;
    await until(world, () => ready(world), 120_000);
    // Required anti-affinity makes the pod's feasibility depend on other pods, so every node change wakes it (a pod
    // without such rules is woken only by a node that could take it).
    const apart = {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: { app: 'none' } }, topologyKey: 'kubernetes.io/hostname' },
      ],
    };
    const huge: Pod = {
      metadata: { name: 'huge', namespace: 'default' },
      spec: {
        affinity: { podAntiAffinity: apart },
        containers: [{ name: 'app', image: 'app:1', resources: { requests: { cpu: '64' } } }],
      },
    };
    await world.clock.busy(world.client.create(SimResources.pods, huge));
    await until(world, async () => (await failedAttempts(world, 'huge')) >= 1, 10_000);
    // A node change every 200 ms for 30 s: without back-off that is a retry every change.
    await churn(world);
    await world.clock.advance(13 * 60_000);
    // First attempt at 0 s, then retries after 1, 2, 4, 8 and 10 s back-offs: 0, 1, 3, 7, 15, 25 s.
    const attempts = await world.clock.busy(failedAttempts(world, 'huge'));
    expect(attempts).toBeGreaterThanOrEqual(5);
    expect(attempts).toBeLessThanOrEqual(7);
    expect((await pods(world)).find((p) => p.metadata.name === 'huge')?.spec.nodeName).toBeUndefined();
  });

  it('does not retry a pod on changes of a node that cannot take it (queueing hints)', async () => {
    h = await startWorld({ machines: [machine('a')], scheduler: { unschedulableFlushMs: 3_600_000 } });
    const world = h;
    await until(world, () => ready(world), 120_000);
    const huge: Pod = {
      metadata: { name: 'huge', namespace: 'default' },
      spec: { containers: [{ name: 'app', image: 'app:1', resources: { requests: { cpu: '64' } } }] },
    };
    await world.clock.busy(world.client.create(SimResources.pods, huge));
    await until(world, async () => (await failedAttempts(world, 'huge')) >= 1, 10_000);
    await churn(world);
    await world.clock.advance(13 * 60_000);
    expect(await world.clock.busy(failedAttempts(world, 'huge'))).toBe(1);
  });
});
