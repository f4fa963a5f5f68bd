import { describe, expect, it } from 'vitest';
import { CreateError, InsufficientCapacityError, NodeClaimNotFoundError } from '../errors.js';
import type { NodeClaim } from '../types.js';
import { FakeCloudProvider } from './fake-cloud-provider.js';
import { fakeInstanceType } from './instance-type-factory.js';

const claim = (requirements: NodeClaim['spec']['requirements'] = []): NodeClaim => ({
  metadata: { name: 'default-abcde' },
  spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' }, requirements },
});

const types = [
  fakeInstanceType({
    name: 'small',
    cpu: 2,
    memoryGi: 4,
    offerings: [{ zone: 'a', capacityType: 'on-demand', price: 0.1 }],
  }),
  fakeInstanceType({
    name: 'big',
    cpu: 8,
    memoryGi: 32,
    offerings: [
      { zone: 'a', capacityType: 'spot', price: 0.05 },
      { zone: 'b', capacityType: 'on-demand', price: 0.4 },
    ],
  }),
];

describe('FakeCloudProvider', () => {
  it('launches the cheapest offering the requirements allow and records the call', async () => {
    const cp = new FakeCloudProvider({ instanceTypes: types });
    const onDemand = await cp.create(
      claim([{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }]),
    );
    expect(onDemand.metadata.labels?.['node.kubernetes.io/instance-type']).toBe('small');
    const any = await cp.create(claim());
    expect(any.metadata.labels?.['karpenter.sh/capacity-type']).toBe('spot');
    expect(any.status?.providerID).toMatch(/^fake:\/\/\/a\/i-fake-/);
    expect(cp.callsOf('create')).toHaveLength(2);
    expect(await cp.list()).toHaveLength(2);
  });

  it('throws insufficient capacity when nothing fits, and not found on a second delete', async () => {
    const cp = new FakeCloudProvider({ instanceTypes: types });
    await expect(
      cp.create(claim([{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z'] }])),
    ).rejects.toSatisfy(InsufficientCapacityError.is);
    const launched = await cp.create(claim());
    await cp.delete(launched);
    await expect(cp.delete(launched)).rejects.toSatisfy(NodeClaimNotFoundError.is);
  });

  it('throws injected errors once, in order', async () => {
    const cp = new FakeCloudProvider({ instanceTypes: types });
    cp.injectError('create', new CreateError('LaunchTemplateNotFound', 'boom'));
    await expect(cp.create(claim())).rejects.toSatisfy(CreateError.is);
    await expect(cp.create(claim())).resolves.toBeDefined();
  });

  it('starts from the default repair policies: Ready False and Unknown for 30 minutes', () => {
    const policies = new FakeCloudProvider().repairPolicies();
    expect(policies.map((p) => `${p.conditionType}=${p.conditionStatus}/${p.tolerationDuration / 60000}m`)).toEqual([
      'Ready=False/30m',
      'Ready=Unknown/30m',
    ]);
  });
});
