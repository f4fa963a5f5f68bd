/**
 * The invariant watcher catches what it is meant to catch: a controller that misbehaves as Tenon must not (two
 * nodes disrupted at once under a budget of one, an eviction that breaks a PDB, a do-not-disrupt pod evicted) is
 * reported, while pods deleted by others (no Evicted event from Tenon) are not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Resources, type KubeObject, type Node, type Pod } from '../../src/kube/index.js';
import { startPlayground, type Playground } from '../../src/sim/playground/playground.js';
import { InvariantWatcher } from './invariants.js';

let pg: Playground | undefined;
let watcher: InvariantWatcher | undefined;
afterEach(async () => {
  watcher?.stop();
  await pg?.stop();
  pg = watcher = undefined;
});

const ready = [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }];

async function fakeNode(p: Playground, name: string): Promise<void> {
  const node: Node = {
    metadata: { name },
    spec: { taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] },
  };
  await p.observer.client.create(Resources.nodes, node);
  await p.observer.client.patch(
    Resources.nodes,
    { name },
    { status: { conditions: ready } },
    { subresource: 'status' },
  );
}

async function readyPod(
  p: Playground,
  name: string,
  app: string,
  annotations: Record<string, string> = {},
): Promise<Pod> {
  const pod: Pod = {
    metadata: { name, namespace: 'default', labels: { app }, annotations },
    spec: { nodeName: 'fake-a', containers: [{ name: 'app', image: 'app' }] },
  };
  await p.observer.client.create(Resources.pods, pod);
  return p.observer.client.patch<Pod>(
    Resources.pods,
    { name, namespace: 'default' },
    { status: { phase: 'Running', conditions: ready } },
    { subresource: 'status' },
  );
}

/** Deletes the pod; with `byTenon`, records Tenon's Evicted event for it as the termination controller does. */
async function evict(p: Playground, pod: Pod, byTenon: boolean): Promise<void> {
  await p.observer.client.delete(Resources.pods, { name: pod.metadata.name ?? '', namespace: 'default' });
  if (!byTenon) return;
  const event = {
    metadata: { name: `${pod.metadata.name}.evicted`, namespace: 'default' },
    involvedObject: { kind: 'Pod', name: pod.metadata.name, namespace: 'default', uid: pod.metadata.uid },
    reason: 'Evicted',
    message: 'Evicted pod: draining Node fake-a',
    type: 'Normal',
    source: { component: 'karpenter' },
  } as KubeObject;
  await p.observer.client.create(Resources.events, event);
}

describe('the fault suite invariants', () => {
  it('report a broken disruption budget, PDB and do-not-disrupt, and nothing for deletions by others', async () => {
    pg = await startPlayground({ seed: 3, defaults: false });
    const p = pg;
    watcher = new InvariantWatcher(p, p.clock.now(), {
      cpu: 1000,
      budgetNodes: 1,
      pdb: { app: 'web', minAvailable: 2 },
      doNotDisruptApp: 'pinned',
      registrationTimeoutMs: 15 * 60_000,
    });
    await watcher.start();
    await p.clock.busy(fakeNode(p, 'fake-a'));
    const web = [await p.clock.busy(readyPod(p, 'web-1', 'web')), await p.clock.busy(readyPod(p, 'web-2', 'web'))];
    const other = await p.clock.busy(readyPod(p, 'other', 'other', { 'karpenter.sh/do-not-disrupt': 'true' }));
    const pinned = await p.clock.busy(readyPod(p, 'pinned', 'pinned'));
    await p.clock.advance(1_000);
    expect(watcher.violations).toEqual([]);

    await p.clock.busy(evict(p, other, false));
    await p.clock.advance(1_000);
    expect(watcher.violations).toEqual([]);

    await p.clock.busy(fakeNode(p, 'fake-b'));
    await p.clock.busy(evict(p, web[0] as Pod, true));
    await p.clock.busy(evict(p, pinned, true));
    await p.clock.advance(1_000);
    expect(watcher.violations.map((v) => v.what)).toEqual([
      'disruption budget broken: 2 nodes disrupted at once (fake-a, fake-b), budget 1',
      'PDB broken: default/web-1 evicted leaving 1 healthy < minAvailable 2',
      'do-not-disrupt pod default/pinned evicted from fake-a',
    ]);
  });
});
