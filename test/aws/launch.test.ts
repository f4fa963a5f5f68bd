import { describe, expect, it } from 'vitest';
import {
  CreateError,
  InsufficientCapacityError,
  NodeClaimNotFoundError,
  NodeClassNotReadyError,
} from '../../src/cloudprovider/index.js';
import { UnavailableOfferingTtlMs } from '../../src/providers/aws/index.js';
import { cluster, nodeClaim, nodeClass, world } from './setup.js';

const onlyTypes = (...types: string[]) => [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: types },
];
const onDemand = { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['on-demand'] };
const zoneA = { key: 'topology.kubernetes.io/zone', operator: 'In' as const, values: ['us-east-1a'] };

describe('AwsCloudProvider.create on the simulated EC2', () => {
  it('launches the cheapest fitting type and returns the NodeClaim with providerID, labels, capacity and allocatable', async () => {
    const w = world();
    await w.apply(nodeClass());
    const claim = nodeClaim([...onlyTypes('m5.large', 'm5.xlarge', 'c5.large'), onDemand], { cpu: '1', memory: '3Gi' });
    const created = await w.provider.create(claim);
    const [instance] = w.sim.listInstances();
    expect(created.status?.providerID).toBe(`aws:///${instance?.zone}/${instance?.instanceId}`);
    expect(created.metadata.labels).toMatchObject({
      'node.kubernetes.io/instance-type': 'c5.large',
      'karpenter.sh/capacity-type': 'on-demand',
      'karpenter.sh/nodepool': 'default',
      'topology.kubernetes.io/zone': instance?.zone,
    });
    expect(created.status?.allocatable).toMatchObject({ cpu: '1930m', memory: '3114Mi', pods: '29' });
    expect(created.status?.imageID).toBe(instance?.imageId);
    expect(instance?.tags).toMatchObject({
      'karpenter.sh/nodepool': 'default',
      'karpenter.k8s.aws/ec2nodeclass': 'default',
      [`kubernetes.io/cluster/${cluster}`]: 'owned',
      'eks:eks-cluster-name': cluster,
      'karpenter.sh/nodeclaim': claim.metadata.name,
      Name: claim.metadata.name,
    });
    expect(instance?.metadataOptions.httpTokens).toBe('required');
    expect(instance?.userData).toContain('apiServerEndpoint: https://demo.eks.example');
    expect(instance?.userData).toContain('karpenter.sh/unregistered');
    w.clock.advance(5_000);
    expect(w.sim.getInstance(instance?.instanceId ?? '')?.state).toBe('running');
  });

  it('falls back to the next offering when the cheapest has no capacity, and avoids it for 3 minutes', async () => {
    const w = world();
    await w.apply(nodeClass());
    for (const zone of w.sim.account.zones)
      w.sim.setCapacity({ instanceType: 'c5.large', zone, capacityType: 'on-demand' }, 0);
    const created = await w.provider.create(nodeClaim([...onlyTypes('c5.large', 'm5.large'), onDemand]));
    expect(created.metadata.labels?.['node.kubernetes.io/instance-type']).toBe('m5.large');
    const types = await w.provider.getInstanceTypes({
      metadata: { name: 'default' },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
            requirements: [],
          },
        },
      },
    });
    const c5 = types.find((t) => t.name === 'c5.large');
    expect(c5?.offerings.filter((o) => o.capacityType === 'on-demand').every((o) => !o.available)).toBe(true);
    w.clock.advance(UnavailableOfferingTtlMs + 61_000);
    const later = (
      await w.provider.getInstanceTypes({
        metadata: { name: 'default' },
        spec: {
          template: {
            spec: {
              nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
              requirements: [],
            },
          },
        },
      })
    ).find((t) => t.name === 'c5.large');
    expect(later?.offerings.some((o) => o.capacityType === 'on-demand' && o.available)).toBe(true);
  });

  it('keeps one computed instance-type list per class however many capacity errors change the unavailable offerings', async () => {
    const w = world();
    await w.apply(nodeClass());
    const pool = {
      metadata: { name: 'default' },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
            requirements: [],
          },
        },
      },
    };
    const zones = w.sim.account.zones;
    for (let i = 0; i < 40; i++) {
      w.provider.unavailableOfferings.mark('m5.large', zones[i % zones.length] ?? '', i % 2 ? 'spot' : 'on-demand');
      w.clock.advance(5_000);
      const types = await w.provider.getInstanceTypes(pool);
      // Each list reflects the latest mark: recomputed in place, not under a new key.
      const m5 = types.find((t) => t.name === 'm5.large');
      expect(
        m5?.offerings.some(
          (o) => o.zone === zones[i % zones.length] && o.capacityType === (i % 2 ? 'spot' : 'on-demand') && o.available,
        ),
      ).toBe(false);
      expect(m5).toBeDefined();
    }
    expect(w.provider.instanceTypes.cachedLists).toBe(1);
  });

  it('throws InsufficientCapacityError with every offering tried when no override has capacity', async () => {
    const w = world();
    await w.apply(nodeClass());
    w.sim.setCapacity({ instanceType: 'm5.large', zone: 'us-east-1a', capacityType: 'on-demand' }, 0);
    const err: unknown = await w.provider
      .create(nodeClaim([...onlyTypes('m5.large'), onDemand, zoneA]))
      .catch((e: unknown) => e);
    expect(InsufficientCapacityError.is(err)).toBe(true);
    expect((err as InsufficientCapacityError).offeringsTried).toEqual([
      { instanceType: 'm5.large', zone: 'us-east-1a', capacityType: 'on-demand' },
    ]);
    expect(w.sim.listInstances()).toHaveLength(0);
  });

  it('chooses spot when allowed and cheaper, on-demand when spot is not allowed', async () => {
    const w = world();
    await w.apply(nodeClass());
    const either = await w.provider.create(nodeClaim(onlyTypes('m5.large')));
    expect(either.metadata.labels?.['karpenter.sh/capacity-type']).toBe('spot');
    const od = await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    expect(od.metadata.labels?.['karpenter.sh/capacity-type']).toBe('on-demand');
    const spotInstance = w.sim.listInstances().find((i) => i.capacityType === 'spot');
    expect(spotInstance?.instanceType).toBe('m5.large');
  });

  it('refuses a NodeClaim whose EC2NodeClass is missing or not ready', async () => {
    const w = world();
    await expect(w.provider.create(nodeClaim())).rejects.toSatisfy(NodeClassNotReadyError.is);
    await w.apply(nodeClass('default', { subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'nope' } }] }));
    const err: unknown = await w.provider.create(nodeClaim()).catch((e: unknown) => e);
    expect(NodeClassNotReadyError.is(err)).toBe(true);
    expect((err as Error).message).toContain('SubnetSelector did not match any Subnets');
  });

  it('reuses one launch template per AMI and max pods, with IMDSv2 required', async () => {
    const w = world();
    await w.apply(nodeClass());
    await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    expect(w.sim.launchTemplateNames()).toHaveLength(1);
    const lt = w.sim.account.launchTemplates.get(w.sim.launchTemplateNames()[0] ?? '');
    expect(lt?.metadataOptions).toEqual({
      httpEndpoint: 'enabled',
      httpTokens: 'required',
      httpPutResponseHopLimit: 1,
      httpProtocolIpv6: 'disabled',
    });
    expect(lt?.blockDeviceMappings).toEqual([
      { deviceName: '/dev/xvda', volumeSizeGiB: 20, volumeType: 'gp3', encrypted: true, deleteOnTermination: true },
    ]);
    expect(lt?.instanceProfileName).toMatch(new RegExp(`^${cluster}_\\d+$`));
  });
});

describe("userData past EC2's limit", () => {
  it('a NodeClaim whose labels take valid userData past 16 KiB fails to launch with InvalidUserData, launching nothing', async () => {
    const w = world();
    // The longest script validation accepts: the NodeClaim's labels and taints then take it over at launch.
    const script = (lines: number): string => `#!/bin/bash\n${'echo configuring\n'.repeat(lines)}`;
    let lo = 0;
    let hi = 2000;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      const c = await w.apply(nodeClass(`probe-${mid}`, { userData: script(mid) }));
      const valid = c.status?.conditions?.find((x) => x.type === 'ValidationSucceeded')?.status === 'True';
      if (valid) lo = mid;
      else hi = mid;
    }
    await w.apply(nodeClass('default', { userData: script(lo) }));
    const e = await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand])).catch((x: unknown) => x);
    expect(CreateError.is(e) && e.reason).toBe('InvalidUserData');
    expect((e as Error).message).toMatch(
      /^EC2NodeClass default: the userData to launch with is \d+ bytes, over EC2's limit of 16384 bytes/,
    );
    expect(w.sim.listInstances()).toEqual([]);
  });

  it('the simulated EC2 refuses a launch template with more than 16384 bytes of userData, as EC2 does', async () => {
    const w = world();
    const [image] = w.sim.account.images;
    const metadataOptions = {
      httpEndpoint: 'enabled',
      httpTokens: 'required',
      httpPutResponseHopLimit: 1,
      httpProtocolIpv6: 'disabled',
    } as const;
    const template = (userData: string) =>
      w.sim.createLaunchTemplate({
        name: `lt-${userData.length}`,
        imageId: image?.imageId ?? '',
        userData,
        securityGroupIds: [],
        instanceProfileName: '',
        blockDeviceMappings: [],
        metadataOptions,
        tags: {},
        detailedMonitoring: false,
      });
    await expect(template('x'.repeat(16_385))).rejects.toMatchObject({
      code: 'InvalidUserData.Malformed',
      message: 'InvalidUserData.Malformed: User data is limited to 16384 bytes.',
    });
    await expect(template('x'.repeat(16_384))).resolves.toMatchObject({ name: 'lt-16384' });
  });
});

describe('AwsCloudProvider get, list, delete', () => {
  it('gets and lists live instances, and leaks neither instance nor launch template after delete', async () => {
    const w = world();
    await w.apply(nodeClass());
    const a = await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    const b = await w.provider.create(nodeClaim([...onlyTypes('c5.xlarge'), onDemand]));
    const got = await w.provider.get(a.status?.providerID ?? '');
    expect(got.metadata.name).toBe(a.metadata.name);
    expect(got.status?.allocatable).toEqual(a.status?.allocatable);
    expect((await w.provider.list()).map((n) => n.status?.providerID).sort()).toEqual(
      [a.status?.providerID, b.status?.providerID].sort(),
    );

    await w.provider.delete(a);
    await w.provider.delete(b);
    await expect(w.provider.delete(a)).rejects.toSatisfy(NodeClaimNotFoundError.is);
    w.clock.advance(10_000);
    await expect(w.provider.get(a.status?.providerID ?? '')).rejects.toSatisfy(NodeClaimNotFoundError.is);
    expect(await w.provider.list()).toEqual([]);
    expect(w.sim.listInstances({ states: ['pending', 'running', 'shutting-down'] })).toEqual([]);
    w.clock.advance(5 * 60_000);
    await Promise.resolve();
    expect(w.sim.launchTemplateNames()).toEqual([]);
  });

  it('lost instances stop being returned', async () => {
    const w = world();
    await w.apply(nodeClass());
    const a = await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    const id = w.sim.listInstances()[0]?.instanceId ?? '';
    w.sim.loseInstance(id);
    w.clock.advance(10_000);
    await expect(w.provider.get(a.status?.providerID ?? '')).rejects.toSatisfy(NodeClaimNotFoundError.is);
    expect(w.sim.getInstance(id)?.stateReason).toBe('Server.InternalError');
  });

  it('lists the node monitoring agent repair policies besides the defaults', () => {
    const w = world();
    const types = w.provider.repairPolicies().map((p) => `${p.conditionType}=${p.conditionStatus}`);
    expect(types).toEqual(
      expect.arrayContaining([
        'Ready=False',
        'Ready=Unknown',
        'AcceleratedHardwareReady=False',
        'StorageReady=False',
        'NetworkingReady=False',
        'KernelReady=False',
        'ContainerRuntimeReady=False',
      ]),
    );
  });
});

describe('AwsCloudProvider.isDrifted', () => {
  it('reports AMIDrift after a new AMI release, SecurityGroupDrift, and NodeClassDrift on a static change', async () => {
    const w = world();
    await w.apply(nodeClass());
    const claim = await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    expect(await w.provider.isDrifted(claim)).toBeUndefined();

    w.sim.publishAmiRelease();
    w.clock.advance(61_000);
    await w.apply(nodeClass());
    expect(await w.provider.isDrifted(claim)).toBe('AMIDrift');

    const w2 = world();
    await w2.apply(nodeClass());
    const c2 = await w2.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    await w2.apply(nodeClass('default', { securityGroupSelectorTerms: [{ name: 'default' }] }));
    expect(await w2.provider.isDrifted(c2)).toBe('SecurityGroupDrift');
    await w2.apply(nodeClass('default', { tags: { team: 'payments' } }));
    expect(await w2.provider.isDrifted(c2)).toBe('NodeClassDrift');
  });
});
