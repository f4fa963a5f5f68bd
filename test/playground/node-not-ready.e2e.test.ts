/**
 * A node whose kubelet goes silent takes its pods out of service, as in a real cluster: the node lifecycle
 * controller marks them not ready when it sets the node's Ready to Unknown, so the Deployment counts them
 * unavailable (what `kubectl get deploy` shows); when the kubelet is back it posts them Ready again and they count.
 */
import { describe, expect, it } from 'vitest';
import { Resources, type KubeObject, type Node, type Pod } from '../../src/kube/index.js';
import { startPlayground, type Playground } from '../../src/sim/playground/playground.js';
import { applyObjects, parseManifests } from '../../src/sim/scenario/apply.js';

const deployment = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: app, resources: {requests: {cpu: 100m, memory: 128Mi}}}]`;

interface Deployment extends KubeObject {
  status?: { availableReplicas?: number; readyReplicas?: number };
}

interface CoreEvent extends KubeObject {
  reason?: string;
  type?: string;
  message?: string;
  involvedObject?: { kind?: string; name?: string };
}

async function get<T extends KubeObject>(pg: Playground, rt: Parameters<Playground['client']['get']>[0], name: string) {
  return pg.clock.busy(pg.observer.client.get<T>(rt as never, { name, namespace: 'default' }));
}

async function available(pg: Playground): Promise<number> {
  return (await get<Deployment>(pg, Resources.deployments, 'web')).status?.availableReplicas ?? 0;
}

async function webPods(pg: Playground): Promise<Pod[]> {
  const pods = await pg.clock.busy(pg.observer.client.list<Pod>(Resources.pods, { labelSelector: 'app=web' }));
  return pods.items;
}

function ready(p: Pod): string | undefined {
  return p.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

/** Advances simulated time in 5 s steps until `done` holds (at most `ms`); returns whether it did. */
async function advanceUntil(pg: Playground, ms: number, done: () => Promise<boolean>): Promise<boolean> {
  for (let t = 0; t <= ms; t += 5_000) {
    if (await done()) return true;
    await pg.clock.advance(5_000);
  }
  return done();
}

describe('pods on a node whose kubelet went silent', () => {
  it('stop counting as available while the node is Unknown, and count again once its kubelet is back', async () => {
    const pg = await startPlayground({ seed: 5 });
    try {
      await pg.clock.busy(applyObjects(pg.client, pg.discovery, parseManifests(deployment)));
      expect(await advanceUntil(pg, 600_000, async () => (await available(pg)) === 3)).toBe(true);
      const nodes = new Set((await webPods(pg)).map((p) => p.spec.nodeName ?? ''));
      expect(nodes.size).toBe(1);
      const [node] = [...nodes];
      if (!node) throw new Error('no node');

      pg.world.kubelets.stopKubelet(node);
      const unknown = async (): Promise<boolean> =>
        (await get<Node>(pg, Resources.nodes, node)).status?.conditions?.find((c) => c.type === 'Ready')?.status ===
        'Unknown';
      expect(await advanceUntil(pg, 120_000, unknown)).toBe(true);
      // The pods are still there (their 300 s unreachable toleration has not run out), but none is available.
      expect(await advanceUntil(pg, 30_000, async () => (await available(pg)) === 0)).toBe(true);
      const pods = await webPods(pg);
      expect(pods.map((p) => [p.spec.nodeName, p.status?.phase, ready(p)])).toEqual(
        pods.map(() => [node, 'Running', 'False']),
      );
      const events = await pg.clock.busy(pg.observer.client.list<CoreEvent>(Resources.events));
      const marked = events.items.filter((e) => e.reason === 'NodeNotReady' && e.involvedObject?.kind === 'Pod');
      expect(marked.map((e) => [e.type, e.message, e.involvedObject?.name]).sort()).toEqual(
        pods.map((p) => ['Warning', 'Node is not ready', p.metadata.name]).sort(),
      );

      pg.world.kubelets.restartKubelet(node);
      expect(await advanceUntil(pg, 60_000, async () => (await available(pg)) === 3)).toBe(true);
      expect((await webPods(pg)).map((p) => [p.spec.nodeName, ready(p)])).toEqual(pods.map(() => [node, 'True']));
    } finally {
      await pg.stop();
    }
  }, 180_000);
});
