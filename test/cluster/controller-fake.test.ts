/**
 * The production controllers (`tenon controller --cloud-provider fake`, on the system clock) against the real
 * control plane: a Deployment's pending pods get nodes, the real kube-scheduler binds them there, and after a
 * scale-down consolidation removes the nodes no longer needed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resources, type KubeObject, type Node, type Pod, type ResourceType } from '../../src/kube/index.js';
import { applyObjects, deleteObject, parseManifests, scaleObject } from '../../src/sim/scenario/apply.js';
import {
  clusterClient,
  clusterKubeconfig,
  eventually,
  fakeNodePool,
  freePort,
  startTenon,
  type TenonProcess,
} from './cluster.js';

const ns = 'tenon-fake-provider';
const pool = 'fake-provider';

const manifests = `
${fakeNodePool(pool, ['m5.large', 'm5.xlarge', 'm5.2xlarge'], '{consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 0s}')}
---
apiVersion: v1
kind: Namespace
metadata: {name: ${ns}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ${ns}}
spec:
  replicas: 6
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {karpenter.sh/nodepool: ${pool}}
      terminationGracePeriodSeconds: 1
      containers:
        - name: web
          image: nginx
          resources: {requests: {cpu: 900m, memory: 512Mi}}
`;

const nodes = Resources.nodes as ResourceType<Node>;
const pods = Resources.pods as ResourceType<Pod>;
const nodeClaims: ResourceType<KubeObject> = {
  group: 'karpenter.sh',
  version: 'v1',
  kind: 'NodeClaim',
  plural: 'nodeclaims',
  namespaced: false,
};

describe('tenon controller --cloud-provider fake on a real control plane', () => {
  let tenon: TenonProcess;
  let cluster: Awaited<ReturnType<typeof clusterClient>>;

  const poolNodes = async (): Promise<Node[]> =>
    (await cluster.client.list(nodes, { labelSelector: `karpenter.sh/nodepool=${pool}` })).items;
  const webPods = async (): Promise<Pod[]> =>
    (await cluster.client.list(pods, { namespace: ns, labelSelector: 'app=web' })).items.filter(
      (p) => !p.metadata.deletionTimestamp,
    );

  beforeAll(async () => {
    cluster = await clusterClient();
    tenon = startTenon(['controller', '--cloud-provider', 'fake', '--kubeconfig', clusterKubeconfig()], {
      DISABLE_LEADER_ELECTION: 'true',
      HEALTH_PROBE_PORT: String(await freePort()),
      CLUSTER_NAME: 'test',
      LOG_LEVEL: 'info',
    });
    await eventually(
      'tenon controller to report its controllers running',
      async () => (/controllers running/.test(tenon.output()) ? true : undefined),
      60_000,
    );
  });

  afterAll(async () => {
    if (!cluster) return;
    await cluster.client.delete(Resources.namespaces, { name: ns }).catch(() => undefined);
    await deleteObject(cluster.client, cluster.discovery, { kind: 'NodePool', name: pool }).catch(() => undefined);
    await eventually(
      "the pool's nodes to be gone",
      async () => ((await poolNodes()).length === 0 ? true : undefined),
      120_000,
    ).catch(() => undefined);
    await deleteObject(cluster.client, cluster.discovery, { kind: 'EC2NodeClass', name: pool }).catch(() => undefined);
    await tenon?.stop();
  });

  it('launches nodes that register and run the pods the real kube-scheduler binds to them', async () => {
    await applyObjects(cluster.client, cluster.discovery, parseManifests(manifests));
    const running = await eventually(
      "all 6 pods Running on the pool's nodes",
      async () => {
        const list = await webPods();
        return list.length === 6 && list.every((p) => p.status?.phase === 'Running' && p.spec?.nodeName)
          ? list
          : undefined;
      },
      180_000,
    ).catch((e: unknown) => {
      throw new Error(`${String(e)}\n--- tenon output (tail) ---\n${tenon.output().slice(-4000)}`);
    });
    const registered = await poolNodes();
    const byName = new Map(registered.map((n) => [n.metadata.name, n]));
    for (const p of running) {
      const node = byName.get(p.spec?.nodeName ?? '');
      expect(node?.spec?.providerID, `node of ${p.metadata.name}`).toMatch(/^fake:\/\/\/us-east-1[abc]\//);
      expect(['m5.large', 'm5.xlarge', 'm5.2xlarge']).toContain(
        node?.metadata.labels?.['node.kubernetes.io/instance-type'],
      );
      expect(node?.spec?.taints ?? []).not.toContainEqual(
        expect.objectContaining({ key: 'karpenter.sh/unregistered' }),
      );
    }
    const claims = (await cluster.client.list(nodeClaims)).items.filter(
      (c) => c.metadata.labels?.['karpenter.sh/nodepool'] === pool,
    );
    expect(claims.length).toBe(registered.length);
  });

  it('consolidates onto fewer nodes after a scale-down', async () => {
    const before = (await poolNodes()).length;
    expect(before).toBeGreaterThan(1);
    // Two pods of 900m fit one m5.large: whichever nodes the scheduler left them on, one node must remain.
    await scaleObject(cluster.client, cluster.discovery, {
      kind: 'Deployment',
      namespace: ns,
      name: 'web',
      replicas: 2,
    });
    const after = await eventually(
      'the pool to shrink to one node with both remaining pods Running on it',
      async () => {
        const [list, left] = [await poolNodes(), await webPods()];
        const live = list.filter((n) => !n.metadata.deletionTimestamp);
        const onIt = left.filter((p) => p.status?.phase === 'Running' && p.spec?.nodeName === live[0]?.metadata.name);
        return live.length === 1 && left.length === 2 && onIt.length === 2 ? live : undefined;
      },
      240_000,
    ).catch((e: unknown) => {
      throw new Error(`${String(e)}\n--- tenon output (tail) ---\n${tenon.output().slice(-4000)}`);
    });
    expect(after).toHaveLength(1);
    expect(tenon.output()).toMatch(/disruption command executed/);
  });
});
