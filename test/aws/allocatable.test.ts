import { describe, expect, it } from 'vitest';
import { computeResources, instanceTypeLabels, toResourceList } from '../../src/providers/aws/index.js';
import { loadCatalog } from '../../src/sim/ec2/index.js';
import { nodeClass, nodePool, world } from './setup.js';

const catalog = loadCatalog();
const al2023 = { family: 'AL2023' as const, vmMemoryOverheadPercent: 0.075, reservedEnis: 0 };

describe('instance types against the published catalog (AL2023 defaults)', () => {
  it('computes allocatable exactly as published for every type in the catalog', async () => {
    const { sim } = world();
    const infos = await sim.describeInstanceTypes();
    expect(infos).toHaveLength(1363);
    const mismatches = infos.flatMap((info) => {
      const published = catalog.find((e) => e.name === info.instanceType)?.allocatable;
      const computed = toResourceList(computeResources(info, al2023).allocatable);
      return JSON.stringify(computed) === JSON.stringify(published)
        ? []
        : [{ type: info.instanceType, computed, published }];
    });
    expect(mismatches).toEqual([]);
  });

  it('labels every type as the catalog does', async () => {
    const { sim } = world();
    const mismatches = (await sim.describeInstanceTypes()).filter((info) => {
      const published = catalog.find((e) => e.name === info.instanceType)?.labels;
      const sorted = (l: Record<string, string>): string =>
        JSON.stringify(Object.entries(l).sort(([a], [b]) => a.localeCompare(b)));
      return sorted(instanceTypeLabels(info, 'linux')) !== sorted(published ?? {});
    });
    expect(mismatches.map((m) => m.instanceType)).toEqual([]);
  });

  it('declares the EBS volumes each type attaches: 39 on Xen, 26 on Nitro and bare metal', async () => {
    const w = world();
    await w.apply(nodeClass());
    const types = await w.provider.getInstanceTypes(nodePool());
    const limit = (name: string): number | undefined =>
      types.find((t) => t.name === name)?.csiAttachLimits?.['ebs.csi.aws.com'];
    expect(['c4.large', 'm3.medium', 'r4.xlarge'].map(limit)).toEqual([39, 39, 39]);
    expect(['c6i.large', 'm5.large', 'c5.metal'].map(limit)).toEqual([26, 26, 26]);
  });

  it('offers every priced type through getInstanceTypes with the published allocatable', async () => {
    const w = world();
    await w.apply(nodeClass());
    const types = await w.provider.getInstanceTypes(nodePool());
    // AL2023 has no build for the first Graviton generation (a1), which Karpenter leaves out.
    const launchable = catalog.filter((e) => e.onDemandPriceUSD !== null && e.family !== 'a1');
    expect(types).toHaveLength(launchable.length);
    expect(types.some((t) => t.name.startsWith('a1.'))).toBe(false);
    const m5 = types.find((t) => t.name === 'm5.large');
    expect(m5?.allocatable).toEqual({
      cpu: '1930m',
      'ephemeral-storage': '17Gi',
      memory: '6903Mi',
      pods: '29',
      'vpc.amazonaws.com/pod-eni': '9',
    });
    expect(m5?.capacity).toMatchObject({ cpu: '2', memory: '7577Mi', pods: '29', 'ephemeral-storage': '20Gi' });
    expect(m5?.overhead.kubeReserved).toEqual({ cpu: '70m', 'ephemeral-storage': '1Gi', memory: '574Mi' });
    const bad = types.filter(
      (t) => JSON.stringify(t.allocatable) !== JSON.stringify(catalog.find((e) => e.name === t.name)?.allocatable),
    );
    expect(bad.map((t) => t.name)).toEqual([]);
    expect(m5?.offerings.map((o) => `${o.zone}/${o.capacityType}`).sort()).toContain('us-east-1a/spot');
  });

  it('applies the EC2NodeClass kubelet overrides', async () => {
    const w = world();
    await w.apply(
      nodeClass('tuned', {
        kubelet: {
          maxPods: 20,
          systemReserved: { cpu: '100m', memory: '100Mi' },
          kubeReserved: { cpu: '200m' },
          evictionHard: { 'memory.available': '5%' },
        },
      }),
    );
    const m5 = (await w.provider.getInstanceTypes(nodePool('tuned'))).find((t) => t.name === 'm5.large');
    // memory: 7577Mi − (11×20+255)Mi − 100Mi system − 5% of 7577Mi (378.85 → 379Mi, rounded up in bytes)
    expect(m5?.capacity.pods).toBe('20');
    expect(m5?.allocatable.cpu).toBe('1700m');
    expect(m5?.overhead.kubeReserved.memory).toBe('475Mi');
    const w2 = world();
    await w2.apply(nodeClass('dense', { kubelet: { podsPerCore: 4 } }));
    const c5 = (await w2.provider.getInstanceTypes(nodePool('dense'))).find((t) => t.name === 'c5.xlarge');
    expect(c5?.capacity.pods).toBe('16');
  });
});
