import { describe, expect, it } from 'vitest';
import { cleanupNodeClass } from '../../src/providers/aws/index.js';
import { cluster, nodeClaim, nodeClass, world } from './setup.js';

const condition = (
  nc: { status?: { conditions?: Array<{ type: string; status: string; reason: string; message: string }> } },
  type: string,
) => nc.status?.conditions?.find((c) => c.type === type);

describe('NodeClassResolver', () => {
  it('resolves subnets, security groups, AMIs and a role into status with every condition True', async () => {
    const w = world();
    const nc = await w.apply(nodeClass());
    expect(nc.status?.subnets).toHaveLength(3);
    expect(new Set(nc.status?.subnets?.map((s) => s.zone))).toEqual(
      new Set(['us-east-1a', 'us-east-1b', 'us-east-1c']),
    );
    expect(nc.status?.subnets?.[0]?.zoneID).toMatch(/^use1-az\d$/);
    expect(nc.status?.securityGroups?.map((g) => g.name)).toEqual([`${cluster}-node`]);
    expect(nc.status?.amis?.map((a) => a.requirements[0]?.values?.[0]).sort()).toEqual(['amd64', 'arm64']);
    expect(nc.status?.amis?.[0]?.name).toMatch(/^amazon-eks-node-al2023-.*-1\.32-v20250501$/);
    expect(nc.status?.instanceProfile).toMatch(new RegExp(`^${cluster}_`));
    for (const t of [
      'SubnetsReady',
      'SecurityGroupsReady',
      'AMIsReady',
      'InstanceProfileReady',
      'ValidationSucceeded',
      'Ready',
    ]) {
      expect(condition(nc, t)?.status, t).toBe('True');
    }
    expect(nc.metadata?.annotations?.['karpenter.k8s.aws/ec2nodeclass-hash']).toMatch(/^\d+$/);
  });

  it('says which selector matched nothing', async () => {
    const w = world();
    const nc = await w.apply(
      nodeClass('broken', {
        subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'other-cluster' } }],
        securityGroupSelectorTerms: [{ id: 'sg-0000000000' }],
        amiSelectorTerms: [{ alias: 'al2023@v19990101' }],
        role: 'NoSuchRole',
      }),
    );
    expect(condition(nc, 'SubnetsReady')).toMatchObject({
      status: 'False',
      reason: 'SubnetsNotFound',
      message:
        'SubnetSelector did not match any Subnets: no subnet matched [tags karpenter.sh/discovery=other-cluster]',
    });
    expect(condition(nc, 'SecurityGroupsReady')?.message).toContain('[id sg-0000000000]');
    expect(condition(nc, 'AMIsReady')).toMatchObject({ status: 'False', reason: 'AMINotFound' });
    expect(condition(nc, 'AMIsReady')?.message).toContain('[alias al2023@v19990101] for Kubernetes 1.32');
    expect(condition(nc, 'InstanceProfileReady')).toMatchObject({
      status: 'False',
      reason: 'InstanceProfileCreationFailed',
    });
    expect(condition(nc, 'InstanceProfileReady')?.message).toContain('role "NoSuchRole" does not exist');
    const ready = condition(nc, 'Ready');
    expect(ready?.status).toBe('False');
    expect(ready?.message).toContain('SubnetsReady=False');
    expect(ready?.message).toContain('AMIsReady=False');
  });

  it('resolves pinned aliases, ids, names and instance profiles', async () => {
    const w = world();
    const pinned = await w.apply(nodeClass('pinned', { amiSelectorTerms: [{ alias: 'bottlerocket@v1.4.0' }] }));
    expect(pinned.status?.amis?.[0]?.name).toContain('bottlerocket-aws-k8s-1.32');
    const byName = await w.apply(
      nodeClass('by-name', {
        amiFamily: 'AL2023',
        amiSelectorTerms: [{ name: 'amazon-eks-node-al2023-arm64-standard-1.32-*' }],
      }),
    );
    expect(byName.status?.amis?.map((a) => a.name)).toEqual(['amazon-eks-node-al2023-arm64-standard-1.32-v20250501']);
    const id = byName.status?.amis?.[0]?.id ?? '';
    const byId = await w.apply(nodeClass('by-id', { amiFamily: 'AL2023', amiSelectorTerms: [{ id }] }));
    expect(byId.status?.amis?.map((a) => a.id)).toEqual([id]);
    const missingProfile = await w.apply(nodeClass('profile', { role: undefined, instanceProfile: 'nope' }));
    expect(condition(missingProfile, 'InstanceProfileReady')).toMatchObject({
      status: 'False',
      reason: 'InstanceProfileNotFound',
      message: 'instance profile "nope" does not exist',
    });
  });

  it("refuses userData past EC2's 16 KiB limit at validation, naming the size and the limit", async () => {
    const w = world();
    const script = `#!/bin/bash\n${'echo configuring the node with a long script\n'.repeat(400)}`;
    const nc = await w.apply(nodeClass('big-userdata', { userData: script }));
    expect(condition(nc, 'ValidationSucceeded')).toMatchObject({ status: 'False', reason: 'InvalidUserData' });
    expect(condition(nc, 'ValidationSucceeded')?.message).toMatch(
      /^spec\.userData cannot be used: the userData to launch with is \d+ bytes, over EC2's limit of 16384 bytes \(16 KiB before base64 encoding\)$/,
    );
    expect(condition(nc, 'Ready')?.status).toBe('False');
    const fits = await w.apply(nodeClass('fits', { userData: script.slice(0, 12_000) }));
    expect(condition(fits, 'ValidationSucceeded')?.status).toBe('True');
  });

  it('keeps lastTransitionTime while a condition does not change', async () => {
    const w = world();
    const first = await w.apply(nodeClass());
    w.clock.advance(120_000);
    const second = await w.apply(first);
    expect(condition(second, 'Ready')).toEqual(condition(first, 'Ready'));
  });

  it('cleanup deletes the class launch templates and the instance profile Tenon created', async () => {
    const w = world();
    const nc = await w.apply(nodeClass());
    await w.provider.create(
      nodeClaim([{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large'] }]),
    );
    expect(w.sim.launchTemplateNames()).toHaveLength(1);
    const result = await cleanupNodeClass({
      port: w.sim,
      templates: w.provider.launchTemplates,
      clusterName: cluster,
      nodeClass: nc,
    });
    expect(result.launchTemplates).toHaveLength(1);
    expect(result.instanceProfile).toBe(nc.status?.instanceProfile);
    expect(w.sim.launchTemplateNames()).toEqual([]);
    expect(await w.sim.getInstanceProfile(nc.status?.instanceProfile ?? '')).toBeUndefined();
  });
});
