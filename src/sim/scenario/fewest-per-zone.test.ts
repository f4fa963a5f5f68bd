// The fewestPerZone expectation against a real (embedded) API server: Nodes and Pods as a cluster would hold
// them, and a small cloud catalog.
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { minimalNodePool } from '../../api/fixtures/index.js';
import { startApiServer, type ApiServer } from '../../apiserver/index.js';
import { KubeClient, Resources, transportFromKubeConfig, type Node, type Pod } from '../../kube/index.js';
import { fewestPerZone, type CloudView, type OfferedType } from './fewest-per-zone.js';

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function cluster(): Promise<KubeClient> {
  server = await startApiServer({});
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  const client = new KubeClient(await transportFromKubeConfig(kc));
  await client.create(Resources.nodePools, minimalNodePool() as unknown as Node);
  return client;
}

/** Sizes 1, 2 and 4 CPU at 2 GiB per CPU; `m.4x` may be dearer per CPU than two `m.2x`. */
function cloud(prices: Record<string, number>, attach = 26): CloudView {
  const types: OfferedType[] = [1, 2, 4].map((cpu) => ({
    name: `m.${cpu}x`,
    labels: { 'kubernetes.io/arch': 'amd64', 'node.kubernetes.io/instance-type': `m.${cpu}x` },
    allocatable: { cpu: String(cpu), memory: `${cpu * 2}Gi`, pods: '110' },
    volumeAttachLimit: attach,
  }));
  return {
    types: () => types,
    price: (type, zone) => (zone === 'zone-a' || zone === 'zone-b' ? prices[type] : undefined),
    priceOf: (labels) => prices[labels['node.kubernetes.io/instance-type'] ?? ''] ?? 0,
  };
}

async function node(client: KubeClient, name: string, o: { type: string; zone: string }): Promise<void> {
  await client.create<Node>(Resources.nodes, {
    metadata: {
      name,
      labels: {
        'karpenter.sh/nodepool': 'default',
        'node.kubernetes.io/instance-type': o.type,
        'topology.kubernetes.io/zone': o.zone,
        'karpenter.sh/capacity-type': 'on-demand',
      },
    },
  });
}

async function pods(client: KubeClient, nodeName: string, o: { count: number; cpu: string; volumes?: boolean }) {
  for (let i = 0; i < o.count; i++)
    await client.create<Pod>(Resources.pods, {
      metadata: { name: `${nodeName}-${i}`, namespace: 'default' },
      spec: {
        nodeName,
        containers: [{ name: 'app', image: 'app', resources: { requests: { cpu: o.cpu, memory: '256Mi' } } }],
        ...(o.volumes ? { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: `${nodeName}-${i}` } }] } : {}),
      },
    });
}

const linear = { 'm.1x': 0.05, 'm.2x': 0.1, 'm.4x': 0.2 };

describe('fewestPerZone', () => {
  it('fails when two half-used nodes of one zone fit on one node that costs no more, naming them', async () => {
    const client = await cluster();
    await node(client, 'n1', { type: 'm.2x', zone: 'zone-a' });
    await node(client, 'n2', { type: 'm.2x', zone: 'zone-a' });
    await pods(client, 'n1', { count: 2, cpu: '500m' });
    await pods(client, 'n2', { count: 2, cpu: '500m' });
    const r = await fewestPerZone(client, cloud(linear));
    expect(r.passed).toBe(false);
    expect(r.observed).toMatch(
      /^n1 and n2 \(zone-a, \$0\.2000\/h\) fit on one (spot|on-demand) m\.2x at \$0\.1000\/h$/,
    );
  });

  it('passes a split the prices pay for, and nodes of different zones', async () => {
    const client = await cluster();
    // Full m.2x plus a 1-CPU tail: one node for both would be an m.4x, dearer than the two here.
    await node(client, 'full', { type: 'm.2x', zone: 'zone-a' });
    await node(client, 'tail', { type: 'm.1x', zone: 'zone-a' });
    await node(client, 'other', { type: 'm.1x', zone: 'zone-b' });
    await pods(client, 'full', { count: 4, cpu: '500m' });
    await pods(client, 'tail', { count: 1, cpu: '500m' });
    await pods(client, 'other', { count: 1, cpu: '500m' });
    const dearLarge = { ...linear, 'm.4x': 0.16 };
    expect(await fewestPerZone(client, cloud(dearLarge))).toMatchObject({ passed: true });
    // The same fleet fails once the larger type costs no more than the pair.
    const r = await fewestPerZone(client, cloud({ ...linear, 'm.4x': 0.15 }));
    expect(r).toMatchObject({
      passed: false,
      observed: expect.stringMatching(/^full and tail .* m\.4x at \$0\.1500\/h$/),
    });
  });

  it('counts volumes against the attach limit of the one node', async () => {
    const client = await cluster();
    await node(client, 'v1', { type: 'm.2x', zone: 'zone-a' });
    await node(client, 'v2', { type: 'm.2x', zone: 'zone-a' });
    await pods(client, 'v1', { count: 2, cpu: '100m', volumes: true });
    await pods(client, 'v2', { count: 2, cpu: '100m', volumes: true });
    expect(await fewestPerZone(client, cloud(linear, 3))).toMatchObject({ passed: true });
    expect(await fewestPerZone(client, cloud(linear, 4))).toMatchObject({ passed: false });
  });
});
