/**
 * EC2NodeClass fields beyond AMI, subnets and groups, as Karpenter v1.15 gives them effect: they narrow the
 * instance types, change capacity, and reach the launch template the simulated EC2 records.
 */
import { describe, expect, it } from 'vitest';
import type { EC2NodeClass } from '../../src/api/index.js';
import type { LaunchTemplateInput } from '../../src/providers/aws/ports/index.js';
import { nodeClassHash } from '../../src/providers/aws/index.js';
import { nodeClaim, nodeClass, nodePool, world, type World } from './setup.js';

type Spec = Partial<NonNullable<EC2NodeClass['spec']>>;

const onlyTypes = (...types: string[]) => [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: types },
];
const onDemand = { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['on-demand'] };

async function withClass(spec: Spec): Promise<World> {
  const w = world();
  await w.apply(nodeClass('default', spec));
  return w;
}

async function typeNames(w: World): Promise<string[]> {
  return (await w.provider.getInstanceTypes(nodePool())).map((t) => t.name);
}

/** The launch template the only instance was launched from. */
function templateOfOnlyInstance(w: World): LaunchTemplateInput | undefined {
  const [instance] = w.sim.listInstances();
  return w.sim.account.launchTemplates.get(instance?.launchTemplateName ?? '');
}

describe('enclaveOptions', () => {
  it('keeps only types that run Nitro Enclaves and enables them in the launch template', async () => {
    const w = await withClass({ enclaveOptions: { enabled: true } });
    const names = await typeNames(w);
    expect(names).toContain('m5.xlarge');
    expect(names).not.toContain('m5.large'); // 2 vCPUs: too small to give an enclave its own cores
    expect(names).not.toContain('t3.xlarge'); // burstable types have no enclave support
    await w.provider.create(nodeClaim([...onlyTypes('m5.large', 'm5.xlarge'), onDemand]));
    expect(w.sim.listInstances()[0]?.instanceType).toBe('m5.xlarge');
    expect(templateOfOnlyInstance(w)?.enclaveOptions).toEqual({ enabled: true });
  });

  it('launches with enclaves disabled when the class does not ask for them', async () => {
    const w = await withClass({});
    await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    expect(templateOfOnlyInstance(w)?.enclaveOptions).toEqual({ enabled: false });
  });
});

describe('cpuOptions.nestedVirtualization', () => {
  it('keeps only types reporting nested virtualization and sets it in the launch template', async () => {
    const w = await withClass({ cpuOptions: { nestedVirtualization: 'enabled' } });
    const names = await typeNames(w);
    expect(names.length).toBeGreaterThan(0);
    expect(names).toContain('m8i.large');
    expect(names).not.toContain('m5.large');
    await w.provider.create(nodeClaim([onDemand]));
    expect(templateOfOnlyInstance(w)?.cpuOptions).toEqual({ nestedVirtualization: 'enabled' });
  });

  it('does not narrow the types when nested virtualization is disabled', async () => {
    const w = await withClass({ cpuOptions: { nestedVirtualization: 'disabled' } });
    expect(await typeNames(w)).toContain('m5.large');
  });
});

describe('networkInterfaces', () => {
  const efaLayout: Spec = {
    networkInterfaces: [
      { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' },
      { networkCardIndex: 0, deviceIndex: 1, interfaceType: 'efa-only' },
    ],
  };

  it('keeps only EFA types, counts the EFA-only interface in allocatable and out of max pods', async () => {
    const w = await withClass(efaLayout);
    const types = await w.provider.getInstanceTypes(nodePool());
    expect(types.map((t) => t.name)).not.toContain('m5.large');
    const c5n = types.find((t) => t.name === 'c5n.18xlarge');
    expect(c5n?.capacity['vpc.amazonaws.com/efa']).toBe('1');
    // 15 ENIs × 49 addresses + 2 = 737 published; the EFA-only interface takes one ENI without addresses.
    expect(c5n?.capacity.pods).toBe(String(14 * 49 + 2));
  });

  it('puts the listed interfaces in the launch template, with no addresses on the EFA-only one', async () => {
    const w = await withClass({ ...efaLayout, ipPrefixCount: 2 });
    await w.provider.create(nodeClaim([...onlyTypes('c5n.18xlarge'), onDemand]));
    const groups = (w.nodeClasses.get('default')?.status?.securityGroups ?? []).map((g) => g.id);
    expect(templateOfOnlyInstance(w)?.networkInterfaces).toEqual([
      { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface', groups, ipv4PrefixCount: 2 },
      { networkCardIndex: 0, deviceIndex: 1, interfaceType: 'efa-only', groups },
    ]);
  });

  it('refuses types whose network cards cannot take an interface on card 1', async () => {
    const w = await withClass({
      networkInterfaces: [
        { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' },
        { networkCardIndex: 1, deviceIndex: 0, interfaceType: 'efa-only' },
      ],
    });
    const names = await typeNames(w);
    expect(names).toContain('c6in.32xlarge'); // two network cards, two EFA devices
    expect(names).not.toContain('c5n.18xlarge'); // one card
  });

  it('attaches one EFA interface per device when a NodeClaim requests EFA and the class lists none', async () => {
    const w = await withClass({});
    await w.provider.create(nodeClaim([...onlyTypes('c6in.32xlarge'), onDemand], { 'vpc.amazonaws.com/efa': '1' }));
    const interfaces = templateOfOnlyInstance(w)?.networkInterfaces ?? [];
    expect(interfaces.map((n) => [n.networkCardIndex, n.deviceIndex, n.interfaceType])).toEqual([
      [0, 0, 'efa'],
      [1, 1, 'efa'],
    ]);
  });
});

describe('connectionTracking', () => {
  it('keeps only Nitro types and sets the timeouts on the primary interface', async () => {
    const w = await withClass({ connectionTracking: { tcpEstablishedTimeout: 3600, udpTimeout: 30 } });
    const names = await typeNames(w);
    expect(names).toContain('m5.large');
    expect(names).not.toContain('m4.large'); // Xen
    await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    expect(templateOfOnlyInstance(w)?.networkInterfaces?.[0]?.connectionTracking).toEqual({
      tcpEstablishedTimeout: 3600,
      udpTimeout: 30,
    });
  });
});

describe('ipPrefixCount', () => {
  it('assigns prefixes to the primary interface and raises max pods to the prefix-delegation ceiling', async () => {
    const w = await withClass({ ipPrefixCount: 1 });
    const m5 = (await w.provider.getInstanceTypes(nodePool())).find((t) => t.name === 'm5.large');
    // 3 ENIs × 9 × 16 + 2 = 434 addresses, capped at 110 below 30 vCPUs.
    expect(m5?.capacity.pods).toBe('110');
    await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    expect(templateOfOnlyInstance(w)?.networkInterfaces?.[0]?.ipv4PrefixCount).toBe(1);
    expect(w.sim.listInstances()[0]?.userData).toContain('maxPods: 110');
  });

  it('is not a static drift field, as upstream', () => {
    expect(nodeClassHash(nodeClass('default', { ipPrefixCount: 4 }))).toBe(nodeClassHash(nodeClass('default')));
  });
});

describe('the drift hash', () => {
  it('changes with the launch fields and not with an amiFamily the alias already implies', () => {
    const base = nodeClassHash(nodeClass('default'));
    expect(nodeClassHash(nodeClass('default', { amiFamily: 'AL2023' }))).toBe(base);
    for (const spec of [
      { enclaveOptions: { enabled: true } },
      { cpuOptions: { nestedVirtualization: 'enabled' as const } },
      { connectionTracking: { udpTimeout: 30 } },
      { placementGroupSelector: { name: 'pg' } },
      { networkInterfaces: [{ networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' as const }] },
    ])
      expect(nodeClassHash(nodeClass('default', spec)), JSON.stringify(spec)).not.toBe(base);
  });
});

describe('the windows2025 alias', () => {
  it('resolves the Windows Server 2025 EKS AMI and launches x86 types with the Windows bootstrap', async () => {
    const w = await withClass({ amiSelectorTerms: [{ alias: 'windows2025@latest' }] });
    const amis = w.nodeClasses.get('default')?.status?.amis ?? [];
    expect(amis.map((a) => a.name)).toEqual([
      expect.stringMatching(/^Windows_Server-2025-English-Core-EKS_Optimized-1\.32-/),
    ]);
    const types = await w.provider.getInstanceTypes(nodePool());
    expect(types.every((t) => t.labels['kubernetes.io/os'] === 'windows')).toBe(true);
    expect(types.map((t) => t.name)).not.toContain('m6g.large');
    await w.provider.create(nodeClaim([...onlyTypes('m5.large'), onDemand]));
    const [instance] = w.sim.listInstances();
    expect(instance?.imageId).toBe(amis[0]?.id);
    expect(instance?.userData).toMatch(/^<powershell>\n/);
    expect(instance?.userData).toContain("& $EKSBootstrapScriptFile -EKSClusterName 'demo'");
    expect(instance?.blockDeviceMappings).toEqual([
      expect.objectContaining({ deviceName: '/dev/sda1', volumeSizeGiB: 50 }),
    ]);
  });
});
