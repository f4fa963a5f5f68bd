/** EC2NodeClass `placementGroupSelector`: resolved into a condition, narrowing types, in the template and labels. */
import { describe, expect, it } from 'vitest';
import { nodeClaim, nodeClass, nodePool, world } from './setup.js';

const onDemand = { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['on-demand'] };
const onlyTypes = (...types: string[]) => [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: types },
];

function condition(status: { conditions?: Array<{ type: string; status: string; message?: string }> } | undefined) {
  return status?.conditions?.find((c) => c.type === 'PlacementGroupReady');
}

describe('placementGroupSelector', () => {
  it('resolves a group by name: PlacementGroupReady, its id on offerings and NodeClaims, placement in the template', async () => {
    const w = world();
    const id = w.sim.createPlacementGroup({ name: 'training', strategy: 'cluster' });
    const stored = await w.apply(nodeClass('default', { placementGroupSelector: { name: 'training' } }));
    expect(condition(stored.status)?.status).toBe('True');
    const types = await w.provider.getInstanceTypes(nodePool());
    expect(types.map((t) => t.name)).not.toContain('t3.large'); // burstable types cannot join a cluster group
    const m5 = types.find((t) => t.name === 'm5.large');
    expect(m5?.requirements).toContainEqual({
      key: 'karpenter.k8s.aws/placement-group-id',
      operator: 'In',
      values: [id],
    });
    const created = await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    expect(created.metadata.labels?.['karpenter.k8s.aws/placement-group-id']).toBe(id);
    const [instance] = w.sim.listInstances();
    expect(w.sim.account.launchTemplates.get(instance?.launchTemplateName ?? '')?.placement).toEqual({ groupId: id });
  });

  it('launches into the lowest partition the NodeClaim allows and labels the node with it', async () => {
    const w = world();
    const id = w.sim.createPlacementGroup({ name: 'db', strategy: 'partition', partitionCount: 3 });
    await w.apply(nodeClass('default', { placementGroupSelector: { id } }));
    const m5 = (await w.provider.getInstanceTypes(nodePool())).find((t) => t.name === 'm5.large');
    expect(m5?.requirements).toContainEqual({
      key: 'karpenter.k8s.aws/placement-group-partition',
      operator: 'In',
      values: ['1', '2', '3'],
    });
    const partitions = {
      key: 'karpenter.k8s.aws/placement-group-partition',
      operator: 'In' as const,
      values: ['3', '2'],
    };
    const created = await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand, partitions]));
    expect(created.metadata.labels?.['karpenter.k8s.aws/placement-group-partition']).toBe('2');
    const [instance] = w.sim.listInstances();
    expect(w.sim.account.launchTemplates.get(instance?.launchTemplateName ?? '')?.placement).toEqual({
      groupId: id,
      partitionNumber: 2,
    });
  });

  it('reports a missing group as PlacementGroupReady=False and keeps the class from Ready', async () => {
    const w = world();
    const stored = await w.apply(nodeClass('default', { placementGroupSelector: { name: 'nope' } }));
    expect(condition(stored.status)).toMatchObject({ status: 'False', reason: 'PlacementGroupNotFound' });
    expect(condition(stored.status)?.message).toBe('Placement group "nope" not found');
    expect(stored.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
  });

  it('drifts nodes launched into another group (PlacementGroupDrift)', async () => {
    const w = world();
    w.sim.createPlacementGroup({ name: 'a', strategy: 'spread' });
    w.sim.createPlacementGroup({ name: 'b', strategy: 'spread' });
    await w.apply(nodeClass('default', { placementGroupSelector: { name: 'a' } }));
    const created = await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    expect(await w.provider.isDrifted(created)).toBeUndefined();
    const moved = await w.apply(nodeClass('default', { placementGroupSelector: { name: 'b' } }));
    // The static hash moved too; compare on a claim stamped with the new hash to see the placement group check.
    const restamped = {
      ...created,
      metadata: { ...created.metadata, annotations: { ...moved.metadata?.annotations } },
    };
    w.clock.advance(61_000);
    expect(await w.provider.isDrifted(restamped)).toBe('PlacementGroupDrift');
  });
});
