// Resources (init containers, sidecars, overhead), DaemonSet overhead, taints and tolerations (NodePool taints,
// startup taints, S1's ephemeral taints), existing nodes and in-flight NodeClaims, NodePool limits and weights,
// and offerings — after Karpenter's suite ("Resource Limits", "Daemonsets", "Taints", "Existing Nodes",
// "Weighted NodePools", "Instance Type Compatibility").
import { describe, expect, it } from 'vitest';
import type { DaemonSet, ExistingNode, InFlightNodeClaim, InstanceType } from '../model.js';
import { makeInstanceType, makeNodePool, makePod, smallCatalog } from '../testing/factories.js';
import { solve } from './solve.js';

const node = (name: string, extra: Partial<ExistingNode> = {}): ExistingNode => ({
  name,
  labels: {
    'kubernetes.io/hostname': name,
    'topology.kubernetes.io/zone': 'test-zone-a',
    'karpenter.sh/nodepool': 'default',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'linux',
  },
  allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
  ...extra,
});
const daemon = (cpu: string, extra: Partial<DaemonSet['template']['spec']> = {}): DaemonSet => ({
  name: `ds-${cpu}`,
  template: { spec: { containers: [{ name: 'd', resources: { requests: { cpu, memory: '128Mi' } } }], ...extra } },
});

describe('resources', () => {
  it('charges the larger of an init container and the containers', () => {
    const pod = makePod({ cpu: '1', initContainers: [{ name: 'init', resources: { requests: { cpu: '6' } } }] });
    const r = solve({ pods: [pod], nodePools: [makeNodePool()], instanceTypes: smallCatalog() });
    expect(r.newNodeClaims[0]?.cheapest.instanceType).toBe('m.8x');
  });

  it('adds sidecars (restartable init containers) to the running containers', () => {
    const pod = makePod({
      cpu: '3',
      initContainers: [{ name: 'proxy', restartPolicy: 'Always', resources: { requests: { cpu: '2' } } }],
    });
    const r = solve({ pods: [pod], nodePools: [makeNodePool()], instanceTypes: smallCatalog() });
    expect(r.newNodeClaims[0]?.requests['cpu']).toBe('5');
    expect(r.newNodeClaims[0]?.cheapest.instanceType).toBe('m.8x');
  });

  it('adds the pod overhead', () => {
    const pod = makePod({ cpu: '2', overhead: { cpu: '500m' } });
    const r = solve({ pods: [pod], nodePools: [makeNodePool()], instanceTypes: smallCatalog() });
    expect(r.newNodeClaims[0]?.cheapest.instanceType).toBe('m.4x');
  });

  it('schedules extended resources only on instance types that have them', () => {
    const gpu = makeInstanceType({ name: 'gpu.8x', cpu: 8, memGi: 32, price: 2, extra: { 'nvidia.com/gpu': '1' } });
    const pod = makePod({ containers: [{ name: 'c', resources: { limits: { 'nvidia.com/gpu': '1' } } }] });
    const r = solve({ pods: [pod], nodePools: [makeNodePool()], instanceTypes: [...smallCatalog(), gpu] });
    expect(r.newNodeClaims[0]?.instanceTypeOptions).toEqual(['gpu.8x']);
  });

  it('explains a pod larger than every instance type with the numbers', () => {
    const r = solve({ pods: [makePod({ cpu: '65' })], nodePools: [makeNodePool()], instanceTypes: smallCatalog() });
    const reason = r.unplaced[0]?.reasons[0];
    expect(reason?.constraint).toBe('resources');
    expect(reason?.details).toMatchObject({ resource: 'cpu', requested: 65000 });
    expect(reason?.message).toMatch(/incompatible with nodepool "default"/);
  });
});

describe('daemonset overhead', () => {
  it('adds the overhead of DaemonSets that would run on the new node', () => {
    const r = solve({
      pods: [makePod({ cpu: '3' })],
      nodePools: [makeNodePool()],
      instanceTypes: smallCatalog(),
      daemonSets: [daemon('1500m')],
    });
    expect(r.newNodeClaims[0]?.cheapest.instanceType).toBe('m.8x');
  });

  it('ignores DaemonSets that do not tolerate the NodePool taints', () => {
    const pool = makeNodePool({ taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }] });
    const pod = makePod({
      cpu: '3',
      tolerations: [{ key: 'team', operator: 'Equal', value: 'a', effect: 'NoSchedule' }],
    });
    const r = solve({ pods: [pod], nodePools: [pool], instanceTypes: smallCatalog(), daemonSets: [daemon('1500m')] });
    expect(r.newNodeClaims[0]?.cheapest.instanceType).toBe('m.4x');
  });

  it('ignores DaemonSets whose node selector the NodePool cannot satisfy', () => {
    const ds = daemon('1500m', { nodeSelector: { 'kubernetes.io/arch': 'arm64' } });
    const r = solve({
      pods: [makePod({ cpu: '3' })],
      nodePools: [makeNodePool()],
      instanceTypes: smallCatalog(),
      daemonSets: [ds],
    });
    expect(r.newNodeClaims[0]?.cheapest.instanceType).toBe('m.4x');
  });
});

describe('taints and tolerations', () => {
  const taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' as const };
  it.each([
    ['no toleration', undefined, false],
    [
      'an Equal toleration',
      [{ key: 'dedicated', operator: 'Equal' as const, value: 'gpu', effect: 'NoSchedule' as const }],
      true,
    ],
    ['an Exists toleration', [{ key: 'dedicated', operator: 'Exists' as const }], true],
    ['a wildcard toleration', [{ operator: 'Exists' as const }], true],
    ['a toleration for another value', [{ key: 'dedicated', operator: 'Equal' as const, value: 'cpu' }], false],
    [
      'a toleration for another effect',
      [{ key: 'dedicated', operator: 'Exists' as const, effect: 'NoExecute' as const }],
      false,
    ],
  ])('a pod with %s on a tainted NodePool: scheduled=%s', (_n, tolerations, scheduled) => {
    const r = solve({
      pods: [makePod({ tolerations })],
      nodePools: [makeNodePool({ taints: [taint] })],
      instanceTypes: smallCatalog(),
    });
    expect(r.unplaced.length === 0).toBe(scheduled);
    if (!scheduled)
      expect(r.unplaced[0]?.reasons[0]?.message).toMatch(/did not tolerate taint dedicated=gpu:NoSchedule/);
  });

  it('does not require tolerating startup taints', () => {
    const pool = makeNodePool({ startupTaints: [{ key: 'example.com/agent-not-ready', effect: 'NoSchedule' }] });
    const r = solve({ pods: [makePod({})], nodePools: [pool], instanceTypes: smallCatalog() });
    expect(r.unplaced).toEqual([]);
    expect(r.newNodeClaims[0]?.taints).toContainEqual({ key: 'example.com/agent-not-ready', effect: 'NoSchedule' });
  });

  it.each([
    'node.cloudprovider.kubernetes.io/uninitialized',
    'node.kubernetes.io/not-ready',
    'karpenter.sh/unregistered',
    'readiness.k8s.io/net',
  ])('counts an uninitialized node with the ephemeral taint %s as able to take the pod (S1)', (key) => {
    const n = node('starting', { initialized: false, taints: [{ key, value: 'true', effect: 'NoSchedule' }] });
    const r = solve({
      pods: [makePod({ name: 'p' })],
      nodes: [n],
      nodePools: [makeNodePool()],
      instanceTypes: smallCatalog(),
    });
    expect(r.existingNodes).toEqual([{ pod: 'default/p', node: 'starting' }]);
    expect(r.newNodeClaims).toEqual([]);
  });

  it('respects the same taint once the node is initialized', () => {
    const n = node('ready', { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] });
    const r = solve({
      pods: [makePod({ name: 'p' })],
      nodes: [n],
      nodePools: [makeNodePool()],
      instanceTypes: smallCatalog(),
    });
    expect(r.existingNodes).toEqual([]);
    expect(r.newNodeClaims).toHaveLength(1);
  });
});

describe('existing nodes and in-flight NodeClaims', () => {
  it('places pods on existing capacity before launching', () => {
    const r = solve({
      pods: [makePod({ name: 'p', cpu: '2' })],
      nodes: [node('n1')],
      nodePools: [makeNodePool()],
      instanceTypes: smallCatalog(),
    });
    expect(r.existingNodes).toEqual([{ pod: 'default/p', node: 'n1' }]);
    expect(r.cost).toBe(0);
  });

  it('counts the pods already on a node', () => {
    const busy = node('n1', { pods: [makePod({ cpu: '3500m' })] });
    const r = solve({
      pods: [makePod({ cpu: '1' })],
      nodes: [busy],
      nodePools: [makeNodePool()],
      instanceTypes: smallCatalog(),
    });
    expect(r.existingNodes).toEqual([]);
    expect(r.newNodeClaims).toHaveLength(1);
  });

  it('nominates pods to an in-flight NodeClaim instead of launching a second one (S4)', () => {
    const claim: InFlightNodeClaim = { ...node('claim-1', { initialized: false }), nodePool: 'default' };
    const r = solve({
      pods: [makePod({ name: 'p' })],
      nodeClaims: [claim],
      nodePools: [makeNodePool()],
      instanceTypes: smallCatalog(),
    });
    expect(r.nominated).toEqual([{ pod: 'default/p', nodeClaim: 'claim-1' }]);
    expect(r.newNodeClaims).toEqual([]);
  });

  it('skips nodes marked for deletion', () => {
    const r = solve({
      pods: [makePod({})],
      nodes: [node('n1', { markedForDeletion: true })],
      nodePools: [makeNodePool()],
      instanceTypes: smallCatalog(),
    });
    expect(r.existingNodes).toEqual([]);
  });

  it('refuses a node whose host port is taken', () => {
    const withPort = (name: string) =>
      makePod({
        name,
        containers: [
          { name: 'c', ports: [{ containerPort: 80, hostPort: 8080 }], resources: { requests: { cpu: '100m' } } },
        ],
      });
    const r = solve({
      pods: [withPort('b')],
      nodes: [node('n1', { pods: [withPort('a')] })],
      nodePools: [makeNodePool()],
      instanceTypes: smallCatalog(),
    });
    expect(r.existingNodes).toEqual([]);
    expect(r.newNodeClaims).toHaveLength(1);
  });

  it('never puts two pods with the same host port on one new NodeClaim', () => {
    const pods = ['a', 'b', 'c'].map((name) =>
      makePod({
        name,
        containers: [
          { name: 'c', ports: [{ containerPort: 80, hostPort: 80 }], resources: { requests: { cpu: '100m' } } },
        ],
      }),
    );
    const r = solve({ pods, nodePools: [makeNodePool()], instanceTypes: smallCatalog() });
    expect(r.newNodeClaims).toHaveLength(3);
  });
});

describe('NodePool limits and weights', () => {
  it('never exceeds a NodePool cpu limit and says why', () => {
    const pods = Array.from({ length: 6 }, () => makePod({ cpu: '3' }));
    const types = [makeInstanceType({ name: 'm.4x', cpu: 4, memGi: 16, price: 0.2 })];
    const r = solve({ pods, nodePools: [makeNodePool({ limits: { cpu: '12' } })], instanceTypes: types });
    expect(r.newNodeClaims).toHaveLength(3);
    expect(r.unplaced).toHaveLength(3);
    const reason = r.unplaced[0]?.reasons.find((x) => x.constraint === 'nodepool-limits');
    // What holds the limit: nothing in use yet, all of it held by the NodeClaims this pass plans.
    expect(reason?.message).toContain(
      'limit cpu 12 CPU: 0 CPU in use, 12 CPU held by 3 NodeClaims planned now, 0 CPU left',
    );
  });

  it('counts in-flight NodeClaims against the limits', () => {
    const types = [makeInstanceType({ name: 'm.4x', cpu: 4, memGi: 16, price: 0.2 })];
    const claim: InFlightNodeClaim = {
      ...node('c1', { pods: [makePod({ cpu: '3500m' })] }),
      nodePool: 'default',
      capacity: { cpu: '4', memory: '16Gi' },
    };
    const r = solve({
      pods: [makePod({ cpu: '1' })],
      nodeClaims: [claim],
      nodePools: [makeNodePool({ limits: { cpu: '4' } })],
      instanceTypes: types,
    });
    expect(r.newNodeClaims).toEqual([]);
    const reason = r.unplaced[0]?.reasons.find((x) => x.constraint === 'nodepool-limits');
    expect(reason?.message).toContain('limit cpu 4 CPU: 4 CPU in use, 0 CPU left');
  });

  it('uses the NodePool with the highest weight first', () => {
    const pools = [makeNodePool({ name: 'low', weight: 1 }), makeNodePool({ name: 'high', weight: 50 })];
    const r = solve({ pods: [makePod({})], nodePools: pools, instanceTypes: smallCatalog() });
    expect(r.newNodeClaims[0]?.nodePool).toBe('high');
  });

  it('falls back to a lower weight NodePool the pod can use', () => {
    const pools = [
      makeNodePool({ name: 'tainted', weight: 50, taints: [{ key: 'x', effect: 'NoSchedule' }] }),
      makeNodePool({ name: 'open', weight: 1 }),
    ];
    const r = solve({ pods: [makePod({})], nodePools: pools, instanceTypes: smallCatalog() });
    expect(r.newNodeClaims[0]?.nodePool).toBe('open');
  });
});

describe('offerings', () => {
  const withOfferings = (offerings: InstanceType['offerings']): InstanceType => ({
    ...makeInstanceType({ name: 'x.4x', cpu: 4, memGi: 16, price: 0.2 }),
    offerings,
  });

  it('skips instance types without an available offering', () => {
    const dead = withOfferings([{ zone: 'test-zone-a', capacityType: 'on-demand', price: 0.01, available: false }]);
    const r = solve({ pods: [makePod({})], nodePools: [makeNodePool()], instanceTypes: [dead, ...smallCatalog()] });
    expect(r.newNodeClaims[0]?.instanceTypeOptions).not.toContain('x.4x');
  });

  it('launches the cheapest available offering the requirements allow (spot when allowed)', () => {
    const it1 = withOfferings([
      { zone: 'test-zone-a', capacityType: 'on-demand', price: 0.2, available: true },
      { zone: 'test-zone-b', capacityType: 'spot', price: 0.07, available: true },
    ]);
    const r = solve({ pods: [makePod({})], nodePools: [makeNodePool()], instanceTypes: [it1] });
    expect(r.newNodeClaims[0]?.cheapest).toMatchObject({ zone: 'test-zone-b', capacityType: 'spot', price: 0.07 });
    const od = solve({
      pods: [makePod({ nodeSelector: { 'karpenter.sh/capacity-type': 'on-demand' } })],
      nodePools: [makeNodePool()],
      instanceTypes: [it1],
    });
    expect(od.newNodeClaims[0]?.cheapest).toMatchObject({ zone: 'test-zone-a', capacityType: 'on-demand' });
  });
});
