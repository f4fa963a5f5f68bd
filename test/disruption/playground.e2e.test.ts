/**
 * Consolidation in the playground (simulated EC2, kubelets and kube-scheduler, the real controllers): after a
 * partial scale-down an on-demand fleet is consolidated, every pod keeps running, and the node running a
 * karpenter.sh/do-not-disrupt pod is never disrupted.
 */
import { describe, expect, it } from 'vitest';
import { Resources, type KubeObject, type Pod } from '../../src/kube/index.js';
import { startPlayground, type Playground } from '../../src/sim/playground/playground.js';
import { applyObjects, parseManifests, scaleObject } from '../../src/sim/scenario/apply.js';

const manifests = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: default}
spec:
  role: KarpenterNodeRole-playground
  amiSelectorTerms: [{alias: al2023@latest}]
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: playground}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: playground}}]
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
        - {key: kubernetes.io/arch, operator: In, values: [amd64]}
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
        - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 1m
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 30
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {karpenter.k8s.aws/instance-category: c}
      containers: [{name: web, image: nginx, resources: {requests: {cpu: "1", memory: 2Gi}}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec:
  maxUnavailable: 2
  selector: {matchLabels: {app: web}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: pinned, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: pinned}}
  template:
    metadata:
      labels: {app: pinned}
      annotations: {karpenter.sh/do-not-disrupt: "true"}
    spec:
      # Kept apart from the web pods, so there is something besides it to consolidate.
      nodeSelector: {karpenter.k8s.aws/instance-category: m}
      containers: [{name: job, image: batch, resources: {requests: {cpu: 500m, memory: 1Gi}}}]`;

async function pods(pg: Playground): Promise<Pod[]> {
  return (await pg.client.list<Pod>(Resources.pods, { namespace: 'default' })).items;
}

async function advance(pg: Playground, minutes: number): Promise<void> {
  for (let i = 0; i < minutes / 5; i++) await pg.clock.advance(5 * 60_000);
}

describe('consolidation in the playground (e2e)', () => {
  it('consolidates after a scale-down, keeps every pod running, never touches the do-not-disrupt node', async () => {
    const pg = await startPlayground({ defaults: false });
    try {
      await pg.clock.busy(applyObjects(pg.client, pg.discovery, parseManifests(manifests)));
      await advance(pg, 10);
      const running = (await pods(pg)).filter((p) => p.status?.phase === 'Running');
      expect(running).toHaveLength(31);
      const pinnedNode = running.find((p) => p.metadata.labels?.['app'] === 'pinned')?.spec.nodeName;
      expect(pinnedNode).toBeDefined();

      await pg.clock.busy(
        scaleObject(pg.client, pg.discovery, { kind: 'Deployment', name: 'web', namespace: 'default', replicas: 4 }),
      );
      // Until something was consolidated (at most an hour of simulated time).
      const consolidated = async (): Promise<boolean> =>
        (await pg.client.list<KubeObject & { reason?: string }>(Resources.events, { namespace: 'default' })).items.some(
          (e) => e.reason === 'DisruptionTerminating',
        );
      for (let i = 0; i < 12 && !(await consolidated()); i++) await advance(pg, 5);
      await advance(pg, 5);

      const now = await pods(pg);
      expect(now.filter((p) => p.status?.phase === 'Running')).toHaveLength(5);
      expect(now.find((p) => p.metadata.labels?.['app'] === 'pinned')?.spec.nodeName).toBe(pinnedNode);
      const events = (
        await pg.client.list<KubeObject & { reason?: string; message?: string; involvedObject?: { name?: string } }>(
          Resources.events,
          { namespace: 'default' },
        )
      ).items;
      const onPinned = events
        .filter((e) => e.involvedObject?.name === pinnedNode)
        .map((e) => `${e.reason ?? ''}: ${e.message ?? ''}`);
      expect(onPinned.some((m) => m.startsWith('DisruptionTerminating'))).toBe(false);
      // Something else was consolidated (the scale-down left room to save).
      expect(events.some((e) => e.reason === 'DisruptionTerminating' && e.involvedObject?.name !== pinnedNode)).toBe(
        true,
      );
    } finally {
      await pg.stop();
    }
  });
});
