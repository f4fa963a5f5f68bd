import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { startApiServer } from '../../apiserver/index.js';
import type { NodeClaim } from '../../cloudprovider/types.js';
import { KubeClient, Resources, transportFromKubeConfig, type Node, type ResourceType } from '../../kube/index.js';
import { SimClock, trackTransport } from '../clock/index.js';
import { catalogInstanceTypes } from './catalog-instance-types.js';
import { startFakeCloud } from './fake-cloud.js';

const claim: NodeClaim = {
  metadata: { name: 'default-x7k2p', labels: { 'karpenter.sh/nodepool': 'default' } },
  spec: {
    nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    requirements: [
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large', 'm5.xlarge'] },
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
    ],
    taints: [{ key: 'team', value: 'payments', effect: 'NoSchedule' }],
  },
};

describe('the fake cloud', () => {
  it('offers the catalog types with their published allocatable, on-demand price and a cheaper spot price', () => {
    const m5 = catalogInstanceTypes().find((t) => t.name === 'm5.large');
    expect(m5?.allocatable).toMatchObject({ cpu: '1930m', pods: '29' });
    expect(m5?.capacity).toMatchObject({ cpu: '2', memory: '8192Mi' });
    const prices = new Map(m5?.offerings.map((o) => [`${o.zone}/${o.capacityType}`, o.price]));
    expect(prices.get('us-east-1a/on-demand')).toBe(0.096);
    expect(prices.get('us-east-1c/spot')).toBeLessThan(0.096);
    expect(m5?.overhead.kubeReserved.cpu).toBe('70m');
  });

  it("registers a Ready Node with the launch's labels, taints, capacity and providerID", async () => {
    const clock = new SimClock({ start: Date.UTC(2026, 0, 1) });
    const server = await startApiServer({ clock, crds: [] });
    const kc = new KubeConfig();
    kc.loadFromString(server.kubeConfigYaml);
    const client = new KubeClient(trackTransport(await transportFromKubeConfig(kc), clock));
    const cloud = await clock.busy(startFakeCloud({ client, clock, instanceIdPrefix: 'test' }));
    try {
      const launched = await cloud.cloudProvider.create(claim);
      expect(launched.metadata.labels?.['node.kubernetes.io/instance-type']).toBe('m5.large');
      await clock.advance(10_000);
      const nodes = await client.list(Resources.nodes as ResourceType<Node>);
      expect(nodes.items).toHaveLength(1);
      const node = nodes.items[0];
      expect(node?.spec?.providerID).toBe(launched.status?.providerID);
      expect(node?.metadata.labels).toMatchObject({
        'node.kubernetes.io/instance-type': 'm5.large',
        'karpenter.sh/nodepool': 'default',
      });
      expect(node?.spec?.taints?.map((t) => t.key).sort()).toEqual(['karpenter.sh/unregistered', 'team']);
      expect(node?.status?.allocatable).toMatchObject({ cpu: '1930m', pods: '29' });
      expect(node?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    } finally {
      cloud.stop();
      await server.close();
    }
  });
});
