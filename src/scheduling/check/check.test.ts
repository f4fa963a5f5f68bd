import { describe, expect, it } from 'vitest';
import type { InstanceType, NewNodeClaim, Pod, SchedulingInput, SchedulingResult } from '../model.js';
import { makeInstanceType, makeNodePool, makePod } from '../testing/factories.js';
import { checkPlacement } from './check.js';
import type { CheckFamily } from './violation.js';

const zone = 'topology.kubernetes.io/zone';
const hostname = 'kubernetes.io/hostname';
const zones = ['zone-a', 'zone-b', 'zone-c'];
const catalog: InstanceType[] = [
  makeInstanceType({ name: 'm.2x', cpu: 2, memGi: 8, price: 0.1, zones }),
  makeInstanceType({ name: 'm.4x', cpu: 4, memGi: 16, price: 0.2, zones }),
];

const key = (p: Pod): string => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;

/** A new NodeClaim holding `pods`, pinned to `inZone` unless it is null. */
function claim(
  pods: Pod[],
  opts: { host: string; inZone?: string | null; options?: string[]; pool?: string },
): NewNodeClaim {
  const options = opts.options ?? ['m.4x'];
  const price = options[0] === 'm.2x' ? 0.1 : 0.2;
  const inZone = opts.inZone === undefined ? 'zone-a' : opts.inZone;
  return {
    nodePool: opts.pool ?? 'default',
    requirements: [
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: options },
      ...(inZone ? [{ key: zone, operator: 'In' as const, values: [inZone] }] : []),
    ],
    instanceTypeOptions: options,
    cheapest: { instanceType: options[0] ?? '', zone: inZone ?? 'zone-a', capacityType: 'on-demand', price },
    pods: pods.map(key),
    requests: {},
    taints: [],
    labels: { [hostname]: opts.host, ...(inZone ? { [zone]: inZone } : {}) },
  };
}

function result(claims: NewNodeClaim[], extra: Partial<SchedulingResult> = {}): SchedulingResult {
  return {
    existingNodes: [],
    nominated: [],
    newNodeClaims: claims,
    unplaced: [],
    cost: claims.reduce((s, c) => s + c.cheapest.price, 0),
    ...extra,
  };
}

function input(pods: Pod[], extra: Partial<SchedulingInput> = {}): SchedulingInput {
  return { pods, nodePools: [makeNodePool()], instanceTypes: catalog, ...extra };
}

function families(i: SchedulingInput, r: SchedulingResult): CheckFamily[] {
  return [...new Set(checkPlacement(i, r).map((v) => v.family))].sort();
}

interface Case {
  name: string;
  family: CheckFamily | undefined;
  build: () => { input: SchedulingInput; result: SchedulingResult };
}

const antiPod = (name: string): Pod =>
  makePod({
    name,
    cpu: '100m',
    labels: { app: 'x' },
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: hostname, labelSelector: { matchLabels: { app: 'x' } } },
        ],
      },
    },
  });
const affinityPod = (name: string, labels: Record<string, string>, sel: Record<string, string>): Pod =>
  makePod({
    name,
    cpu: '100m',
    labels,
    affinity: {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: zone, labelSelector: { matchLabels: sel } }],
      },
    },
  });
const hostAffinityPod = (name: string, labels: Record<string, string>, sel: Record<string, string>): Pod =>
  makePod({
    name,
    cpu: '100m',
    labels,
    affinity: {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: hostname, labelSelector: { matchLabels: sel } },
        ],
      },
    },
  });
const spreadPod = (name: string, extra: { minDomains?: number; labels?: Record<string, string> } = {}): Pod =>
  makePod({
    name,
    cpu: '100m',
    labels: extra.labels ?? { app: 's' },
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: zone,
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 's' } },
        minDomains: extra.minDomains,
      },
    ],
  });
const portPod = (name: string): Pod => {
  const p = makePod({ name, cpu: '100m' });
  p.spec.containers[0] = { ...p.spec.containers[0], name: 'c', ports: [{ containerPort: 80, hostPort: 8080 }] };
  return p;
};

const cases: Case[] = [
  {
    name: 'accounting: a pending pod missing from the result',
    family: 'accounting',
    build: () => ({ input: input([makePod({ name: 'a' })]), result: result([]) }),
  },
  {
    name: 'accounting: a pod placed twice',
    family: 'accounting',
    build: () => {
      const a = makePod({ name: 'a' });
      return { input: input([a]), result: result([claim([a], { host: 'h1' }), claim([a], { host: 'h2' })]) };
    },
  },
  {
    name: 'resources: five 1-CPU pods on a 4-CPU type',
    family: 'resources',
    build: () => {
      const pods = ['a', 'b', 'c', 'd', 'e'].map((name) => makePod({ name, cpu: '1', memory: '1Gi' }));
      return { input: input(pods), result: result([claim(pods, { host: 'h1' })]) };
    },
  },
  {
    name: 'resources: DaemonSet overhead on a new node counts',
    family: 'resources',
    build: () => {
      const pods = ['a', 'b'].map((name) => makePod({ name, cpu: '1800m', memory: '1Gi' }));
      const ds = {
        name: 'ds',
        template: { spec: { containers: [{ name: 'd', resources: { requests: { cpu: '500m' } } }] } },
      };
      return { input: input(pods, { daemonSets: [ds] }), result: result([claim(pods, { host: 'h1' })]) };
    },
  },
  {
    name: 'resources: an init container larger than the containers counts',
    family: 'resources',
    build: () => {
      const a = makePod({
        name: 'a',
        cpu: '100m',
        initContainers: [{ name: 'init', resources: { requests: { cpu: '5' } } }],
      });
      return { input: input([a]), result: result([claim([a], { host: 'h1' })]) };
    },
  },
  {
    name: 'resources: sidecars add to the containers',
    family: 'resources',
    build: () => {
      const a = makePod({
        name: 'a',
        cpu: '3',
        initContainers: [{ name: 'side', restartPolicy: 'Always', resources: { requests: { cpu: '1500m' } } }],
      });
      return { input: input([a]), result: result([claim([a], { host: 'h1' })]) };
    },
  },
  {
    name: 'resources: a full existing node',
    family: 'resources',
    build: () => {
      const a = makePod({ name: 'a', cpu: '2' });
      const node = {
        name: 'n1',
        labels: { [zone]: 'zone-a', [hostname]: 'n1' },
        allocatable: { cpu: '3', memory: '8Gi', pods: '10' },
        pods: [makePod({ name: 'old', cpu: '1500m' })],
      };
      return {
        input: input([a], { nodes: [node] }),
        result: result([], { existingNodes: [{ pod: key(a), node: 'n1' }] }),
      };
    },
  },
  {
    name: 'requirements: a zone nodeSelector on a NodeClaim whose zone is still open',
    family: 'requirements',
    build: () => {
      const a = makePod({ name: 'a', nodeSelector: { [zone]: 'zone-b' } });
      return { input: input([a]), result: result([claim([a], { host: 'h1', inZone: null })]) };
    },
  },
  {
    name: 'requirements: required node affinity not met by an existing node',
    family: 'requirements',
    build: () => {
      const a = makePod({
        name: 'a',
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: zone, operator: 'NotIn', values: ['zone-a'] }] }],
            },
          },
        },
      });
      const node = { name: 'n1', labels: { [zone]: 'zone-a' }, allocatable: { cpu: '4', memory: '8Gi', pods: '10' } };
      return {
        input: input([a], { nodes: [node] }),
        result: result([], { existingNodes: [{ pod: key(a), node: 'n1' }] }),
      };
    },
  },
  {
    name: 'requirements: a Gt requirement on an integer label',
    family: 'requirements',
    build: () => {
      const a = makePod({
        name: 'a',
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['8'] }] }],
            },
          },
        },
      });
      const node = { name: 'n1', labels: { cores: '4' }, allocatable: { cpu: '4', memory: '8Gi', pods: '10' } };
      return {
        input: input([a], { nodes: [node] }),
        result: result([], { existingNodes: [{ pod: key(a), node: 'n1' }] }),
      };
    },
  },
  {
    name: 'taints: a NodePool taint the pod does not tolerate',
    family: 'taints',
    build: () => {
      const a = makePod({ name: 'a' });
      return {
        input: input([a], { nodePools: [makeNodePool({ taints: [{ key: 'gpu', effect: 'NoSchedule' }] })] }),
        result: result([claim([a], { host: 'h1' })]),
      };
    },
  },
  {
    name: 'taints: an ephemeral taint on an initialized node blocks',
    family: 'taints',
    build: () => {
      const a = makePod({ name: 'a' });
      const node = {
        name: 'n1',
        labels: {},
        allocatable: { cpu: '4', memory: '8Gi', pods: '10' },
        taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' as const }],
      };
      return {
        input: input([a], { nodes: [node] }),
        result: result([], { existingNodes: [{ pod: key(a), node: 'n1' }] }),
      };
    },
  },
  {
    name: 'pod affinity: two self-affine pods in different zones',
    family: 'pod-affinity',
    build: () => {
      const [a, b] = [affinityPod('a', { g: '1' }, { g: '1' }), affinityPod('b', { g: '1' }, { g: '1' })];
      return {
        input: input([a, b]),
        result: result([claim([a], { host: 'h1', inZone: 'zone-a' }), claim([b], { host: 'h2', inZone: 'zone-b' })]),
      };
    },
  },
  {
    name: 'pod affinity: a pod whose selector matches nothing',
    family: 'pod-affinity',
    build: () => {
      const a = affinityPod('a', { g: '1' }, { g: '2' });
      return { input: input([a]), result: result([claim([a], { host: 'h1' })]) };
    },
  },
  {
    // The group on h1 could only start with a (nothing selected anywhere), but b, selected and free of affinity, binds first.
    name: 'pod affinity: a hostname group that cannot start because a selected pod without affinity runs elsewhere',
    family: 'pod-affinity',
    build: () => {
      const [a, c] = [hostAffinityPod('a', { g: 'a' }, { g: 'a' }), hostAffinityPod('c', { g: 'f' }, { g: 'a' })];
      const b = makePod({ name: 'b', cpu: '100m', labels: { g: 'a' } });
      return { input: input([a, b, c]), result: result([claim([a, c], { host: 'h1' }), claim([b], { host: 'h2' })]) };
    },
  },
  {
    // b and c may only run in zone-a; a, which may run anywhere, sees zone-b (a node is there) holding none.
    name: 'topology spread: an owner with no node filter joins pods other filters confine to one zone',
    family: 'topology-spread',
    build: () => {
      const a = spreadPod('a');
      const b = makePod({
        name: 'b',
        cpu: '100m',
        labels: { app: 's' },
        nodeSelector: { [zone]: 'zone-a' },
        topologySpreadConstraints: a.spec.topologySpreadConstraints,
      });
      const c = makePod({ name: 'c', cpu: '100m', labels: { app: 's' }, nodeSelector: { [zone]: 'zone-a' } });
      const d = makePod({ name: 'd', cpu: '100m' });
      return {
        input: input([a, b, c, d]),
        result: result([
          claim([a, b, c], { host: 'h1', inZone: 'zone-a' }),
          claim([d], { host: 'h2', inZone: 'zone-b' }),
        ]),
      };
    },
  },
  {
    name: 'pod anti-affinity: two anti-affine pods on one node',
    family: 'pod-anti-affinity',
    build: () => {
      const [a, b] = [antiPod('a'), antiPod('b')];
      return { input: input([a, b]), result: result([claim([a, b], { host: 'h1' })]) };
    },
  },
  {
    name: 'pod anti-affinity: an existing pod rejects a new one (inverse direction)',
    family: 'pod-anti-affinity',
    build: () => {
      const a = makePod({ name: 'a', cpu: '100m', labels: { app: 'x' } });
      const node = {
        name: 'n1',
        labels: { [hostname]: 'n1' },
        allocatable: { cpu: '4', memory: '8Gi', pods: '10' },
        pods: [antiPod('old')],
      };
      return {
        input: input([a], { nodes: [node] }),
        result: result([], { existingNodes: [{ pod: key(a), node: 'n1' }] }),
      };
    },
  },
  {
    name: 'topology spread: three pods in one zone while others exist',
    family: 'topology-spread',
    build: () => {
      const pods = ['a', 'b', 'c', 'd'].map((n) => spreadPod(n));
      return {
        input: input(pods),
        result: result([
          claim(pods.slice(0, 3), { host: 'h1', inZone: 'zone-a' }),
          claim(pods.slice(3), { host: 'h2', inZone: 'zone-b' }),
        ]),
      };
    },
  },
  {
    name: 'topology spread: pods counted by the selector but not carrying the constraint count',
    family: 'topology-spread',
    build: () => {
      const s = spreadPod('s', { labels: { other: '1' } });
      const plain = ['p1', 'p2'].map((name) => makePod({ name, cpu: '100m', labels: { app: 's' } }));
      const other = { name: 'n2', labels: { [zone]: 'zone-b' }, allocatable: { cpu: '4', memory: '8Gi', pods: '10' } };
      return {
        input: input([s, ...plain], { nodes: [other] }),
        result: result([claim([s, ...plain], { host: 'h1', inZone: 'zone-a' })]),
      };
    },
  },
  {
    name: 'topology spread: minDomains makes the minimum zero',
    family: 'topology-spread',
    build: () => {
      const pods = ['a', 'b'].map((n) => spreadPod(n, { minDomains: 3 }));
      return { input: input(pods), result: result([claim(pods, { host: 'h1', inZone: 'zone-a' })]) };
    },
  },
  {
    name: 'topology spread: a constrained pod on a NodeClaim with an open zone',
    family: 'topology-spread',
    build: () => {
      const a = spreadPod('a');
      return { input: input([a]), result: result([claim([a], { host: 'h1', inZone: null })]) };
    },
  },
  {
    name: 'host ports: two pods with the same host port on one node',
    family: 'host-ports',
    build: () => {
      const [a, b] = [portPod('a'), portPod('b')];
      return { input: input([a, b]), result: result([claim([a, b], { host: 'h1' })]) };
    },
  },
  {
    name: 'volume topology: a bound volume in another zone',
    family: 'volume-topology',
    build: () => {
      const a = makePod({ name: 'a', volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] });
      const volumes = {
        claims: { 'default/c': { volumeName: 'pv1' } },
        volumes: {
          pv1: { nodeAffinity: [{ matchExpressions: [{ key: zone, operator: 'In' as const, values: ['zone-b'] }] }] },
        },
      };
      return { input: input([a], { volumes }), result: result([claim([a], { host: 'h1', inZone: 'zone-a' })]) };
    },
  },
  {
    name: 'volume topology: an unbound Immediate claim placed anyway',
    family: 'volume-topology',
    build: () => {
      const a = makePod({ name: 'a', volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] });
      const volumes = {
        claims: { 'default/c': { storageClassName: 'std' } },
        storageClasses: { std: { name: 'std', volumeBindingMode: 'Immediate' as const } },
      };
      return { input: input([a], { volumes }), result: result([claim([a], { host: 'h1' })]) };
    },
  },
  {
    name: 'csi limits: more volumes than the driver allows',
    family: 'csi-limits',
    build: () => {
      const a = makePod({ name: 'a', volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] });
      const volumes = {
        claims: { 'default/c': { volumeName: 'pv1' }, 'default/d': { volumeName: 'pv2' } },
        volumes: { pv1: { driver: 'ebs' }, pv2: { driver: 'ebs' } },
      };
      const old = makePod({
        name: 'old',
        cpu: '100m',
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'd' } }],
      });
      const node = {
        name: 'n1',
        labels: {},
        allocatable: { cpu: '4', memory: '8Gi', pods: '10' },
        pods: [old],
        csiAttachLimits: { ebs: 1 },
      };
      return {
        input: input([a], { nodes: [node], volumes }),
        result: result([], { existingNodes: [{ pod: key(a), node: 'n1' }] }),
      };
    },
  },
  {
    name: 'nodepool limits: a new NodeClaim past the cpu limit',
    family: 'nodepool-limits',
    build: () => {
      const a = makePod({ name: 'a' });
      return {
        input: input([a], { nodePools: [makeNodePool({ limits: { cpu: '2' } })] }),
        result: result([claim([a], { host: 'h1' })]),
      };
    },
  },
  {
    name: 'offerings: an option with no available offering',
    family: 'offerings',
    build: () => {
      const a = makePod({ name: 'a' });
      const types = [
        {
          ...makeInstanceType({ name: 'm.4x', cpu: 4, memGi: 16, price: 0.2, zones }),
          offerings: zones.map((z) => ({ zone: z, capacityType: 'on-demand' as const, price: 0.2, available: false })),
        },
      ];
      return { input: input([a], { instanceTypes: types }), result: result([claim([a], { host: 'h1' })]) };
    },
  },
  {
    name: 'nodeclaim: options not cheapest first',
    family: 'nodeclaim',
    build: () => {
      const a = makePod({ name: 'a', cpu: '100m' });
      const c = claim([a], { host: 'h1', options: ['m.4x', 'm.2x'] });
      return { input: input([a]), result: result([c]) };
    },
  },
  {
    name: 'nodeclaim: minValues not met by the options',
    family: 'nodeclaim',
    build: () => {
      const a = makePod({ name: 'a', cpu: '100m' });
      const pool = makeNodePool({
        requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'Exists', minValues: 2 }],
      });
      return {
        input: input([a], { nodePools: [pool] }),
        result: result([claim([a], { host: 'h1', options: ['m.4x'] })]),
      };
    },
  },
  {
    name: 'cost: the reported cost does not add up',
    family: 'cost',
    build: () => {
      const a = makePod({ name: 'a' });
      return { input: input([a]), result: { ...result([claim([a], { host: 'h1' })]), cost: 5 } };
    },
  },
];

describe('checkPlacement catches each constraint family', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const { input: i, result: r } = c.build();
    expect(families(i, r)).toEqual([c.family]);
  });
});

describe('checkPlacement accepts valid placements', () => {
  it('one pod per zone for a spread constraint, anti-affine pods apart, ports apart', () => {
    const spread = ['a', 'b', 'c'].map((n) => spreadPod(n));
    const [x, y] = [antiPod('x'), antiPod('y')];
    const [p, q] = [portPod('p'), portPod('q')];
    const claims = [
      claim([spread[0] as Pod, x, p], { host: 'h1', inZone: 'zone-a' }),
      claim([spread[1] as Pod, y, q], { host: 'h2', inZone: 'zone-b' }),
      claim([spread[2] as Pod], { host: 'h3', inZone: 'zone-c' }),
    ];
    expect(checkPlacement(input([...spread, x, y, p, q]), result(claims))).toEqual([]);
  });

  it('self-affine pods in one zone, and a pod following them', () => {
    const [a, b] = [affinityPod('a', { g: '1' }, { g: '1' }), affinityPod('b', { g: '1' }, { g: '1' })];
    const c = affinityPod('c', { g: '2' }, { g: '1' });
    const claims = [claim([a], { host: 'h1', inZone: 'zone-a' }), claim([b, c], { host: 'h2', inZone: 'zone-a' })];
    expect(checkPlacement(input([a, b, c]), result(claims))).toEqual([]);
  });

  it('a hostname affinity cycle started by a self-affine pod before a selected pod elsewhere binds', () => {
    // Valid order: a (first of its group: nothing selects g=a yet), c, d, then x and b on h2. A replay that binds b
    // (its own term met by x) before starting the group on h1 wrongly finds a, c and d stuck.
    const [a, c, d] = [
      hostAffinityPod('a', { g: 'a' }, { g: 'a' }),
      hostAffinityPod('c', { g: 'f' }, { g: 'a' }),
      hostAffinityPod('d', { g: 'a' }, { g: 'f' }),
    ];
    const x = makePod({ name: 'x', cpu: '100m', labels: { g: 'x' } });
    const b = hostAffinityPod('b', { g: 'a' }, { g: 'x' });
    const claims = [claim([a, c, d], { host: 'h1' }), claim([x, b], { host: 'h2' })];
    expect(checkPlacement(input([a, b, c, d, x]), result(claims))).toEqual([]);
  });

  it('spread counts only nodes passing the owner node filter: a node that may be in another zone is no eligible domain', () => {
    // nodeAffinityPolicy Honor: b only sees zone-a nodes. The open node may launch in zone-a (then it holds no
    // matching pod) or elsewhere (then it is not eligible), so zone-b and zone-c offer b no minimum of 0.
    const b = makePod({
      name: 'b',
      cpu: '100m',
      labels: { app: 's' },
      nodeSelector: { [zone]: 'zone-a' },
      topologySpreadConstraints: spreadPod('x').spec.topologySpreadConstraints,
    });
    const c = makePod({ name: 'c', cpu: '100m', labels: { app: 's' }, nodeSelector: { [zone]: 'zone-a' } });
    const d = makePod({ name: 'd', cpu: '100m' });
    const claims = [claim([b, c], { host: 'h1', inZone: 'zone-a' }), claim([d], { host: 'h2', inZone: null })];
    expect(checkPlacement(input([b, c, d]), result(claims))).toEqual([]);
  });

  it('a pod that may or may not pass the owner filter raises its domain in the count and the minimum alike', () => {
    // Arm owners, one per zone; c (no arch) shares zone-a on a node that may launch arm64 or amd64. Either way a's
    // skew is 1: zone-a holds 2 of 1, 1, 1 or 1 of 0, 1, 1 (kube-scheduler counts both without a itself).
    const arm = makeInstanceType({ name: 'a.4x', cpu: 4, memGi: 16, price: 0.2, zones, arch: 'arm64' });
    const owner = (name: string): Pod =>
      makePod({
        name,
        cpu: '100m',
        labels: { app: 's' },
        nodeSelector: { 'kubernetes.io/arch': 'arm64' },
        topologySpreadConstraints: spreadPod('x').spec.topologySpreadConstraints,
      });
    const [a, b, d] = [owner('a'), owner('b'), owner('d')];
    const c = makePod({ name: 'c', cpu: '100m', labels: { app: 's' } });
    const claims = [
      claim([a], { host: 'h1', inZone: 'zone-a', options: ['a.4x'] }),
      claim([c], { host: 'h2', inZone: 'zone-a', options: ['m.4x', 'a.4x'] }),
      claim([b], { host: 'h3', inZone: 'zone-b', options: ['a.4x'] }),
      claim([d], { host: 'h4', inZone: 'zone-c', options: ['a.4x'] }),
    ];
    expect(checkPlacement(input([a, b, c, d], { instanceTypes: [...catalog, arm] }), result(claims))).toEqual([]);
  });

  it('an ephemeral or startup taint on a node not yet initialized does not block (S1)', () => {
    const a = makePod({ name: 'a' });
    const node = {
      name: 'n1',
      labels: {},
      initialized: false,
      allocatable: { cpu: '4', memory: '8Gi', pods: '10' },
      taints: [
        { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' as const },
        { key: 'startup', effect: 'NoSchedule' as const },
      ],
      startupTaints: [{ key: 'startup', effect: 'NoSchedule' as const }],
    };
    expect(
      checkPlacement(input([a], { nodes: [node] }), result([], { existingNodes: [{ pod: key(a), node: 'n1' }] })),
    ).toEqual([]);
  });

  it('a tolerated NodePool taint, a WaitForFirstConsumer volume in an allowed zone, an unplaced pod with a reason', () => {
    const a = makePod({
      name: 'a',
      tolerations: [{ key: 'gpu', operator: 'Exists' }],
      volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }],
    });
    const b = makePod({ name: 'b', cpu: '64' });
    const volumes = {
      claims: { 'default/c': { storageClassName: 'wffc' } },
      storageClasses: {
        wffc: {
          name: 'wffc',
          volumeBindingMode: 'WaitForFirstConsumer' as const,
          allowedTopologies: [{ matchLabelExpressions: [{ key: zone, values: ['zone-a'] }] }],
        },
      },
    };
    const pool = makeNodePool({ taints: [{ key: 'gpu', effect: 'NoSchedule' }] });
    const r = result([claim([a], { host: 'h1', inZone: 'zone-a' })], {
      unplaced: [{ pod: key(b), reasons: [{ constraint: 'resources', message: 'too big' }] }],
    });
    expect(checkPlacement(input([a, b], { nodePools: [pool], volumes }), r)).toEqual([]);
  });

  it('quantities in every legal form compare exactly', () => {
    const a = makePod({ name: 'a', cpu: '0.5', memory: '4294967296' });
    const b = makePod({ name: 'b', cpu: '1500m', memory: '4Gi' });
    const c = makePod({ name: 'c', cpu: '2e0', memory: '8e9' });
    const types = [makeInstanceType({ name: 'm.4x', cpu: 4, memGi: 16, price: 0.2, zones })];
    expect(
      checkPlacement(input([a, b, c], { instanceTypes: types }), result([claim([a, b, c], { host: 'h1' })])),
    ).toEqual([]);
  });

  it('reads quantities that arrive as JSON numbers (cpu: 1 in YAML), as the API server stores them', () => {
    const asNumbers = (p: Pod, cpu: number, memory: number): Pod => {
      const requests: Record<string, unknown> = { cpu, memory };
      return {
        ...p,
        spec: {
          ...p.spec,
          containers: [{ name: 'main', resources: { requests: requests as Record<string, string> } }],
        },
      };
    };
    const a = asNumbers(makePod({ name: 'a' }), 2, 4 * 2 ** 30);
    const b = asNumbers(makePod({ name: 'b' }), 3, 2 ** 30);
    const types = [makeInstanceType({ name: 'm.4x', cpu: 4, memGi: 16, price: 0.2, zones })];
    // Five cores on a four-core type: the checker must parse the numbers to see it.
    expect(families(input([a, b], { instanceTypes: types }), result([claim([a, b], { host: 'h1' })]))).toEqual([
      'resources',
    ]);
    expect(checkPlacement(input([a], { instanceTypes: types }), result([claim([a], { host: 'h1' })]))).toEqual([]);
  });
});
