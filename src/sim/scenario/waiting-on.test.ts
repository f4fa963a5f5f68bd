import { describe, expect, it } from 'vitest';
import { Resources, type Node } from '../../kube/index.js';
import { startPlayground } from '../playground/playground.js';
import { applyObjects, parseManifests } from './apply.js';
import { nothingWaiting } from './waiting-on.js';

const deployment = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: app, resources: {requests: {cpu: 100m, memory: 128Mi}}}]`;

describe('nothingWaiting (when an attached run may pace faster)', () => {
  it('holds once pods run on Ready nodes, not while pods are pending or a stopped kubelet’s node still says Ready', async () => {
    const pg = await startPlayground({ seed: 3 });
    try {
      expect(nothingWaiting(pg)).toBe(true);
      await pg.clock.busy(applyObjects(pg.client, pg.discovery, parseManifests(deployment)));
      await pg.clock.advance(1_000);
      // The Deployment's pods exist and wait for a node.
      expect(nothingWaiting(pg)).toBe(false);
      expect(await pg.clock.runUntil(() => nothingWaiting(pg), 600_000)).toBe(true);
      expect(pg.world.kubelets.list().length).toBeGreaterThan(0);
      // A stopped kubelet's node still says Ready until the node lifecycle controller notices: already not settled.
      const [kubelet] = pg.world.kubelets.list();
      pg.world.kubelets.stopKubelet(kubelet?.nodeName ?? '');
      expect(nothingWaiting(pg)).toBe(false);
      // Once the node lifecycle controller has marked the node Unknown, what is left runs on Tenon's clock.
      const unknown = (): boolean =>
        pg.informers
          .get<Node>(Resources.nodes)
          .cache.get(kubelet?.nodeName ?? '')
          ?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'Unknown') ?? false;
      expect(await pg.clock.runUntil(unknown, 300_000)).toBe(true);
      expect(nothingWaiting(pg)).toBe(true);
    } finally {
      await pg.stop();
    }
  });
});
