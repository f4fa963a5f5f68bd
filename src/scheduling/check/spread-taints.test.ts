import { describe, expect, it } from 'vitest';
import type { Taint } from '../../api/index.js';
import type { ExistingNode, Pod, SchedulingInput, SchedulingResult, TopologySpreadConstraint } from '../model.js';
import { makeInstanceType, makeNodePool, makePod } from '../testing/factories.js';
import { checkPlacement } from './check.js';

const zone = 'topology.kubernetes.io/zone';
const hostname = 'kubernetes.io/hostname';
const labels = { app: 'web' };
const team: Taint = { key: 'team', effect: 'NoSchedule' };

const spread = (policy: 'Honor' | 'Ignore'): TopologySpreadConstraint => ({
  maxSkew: 1,
  topologyKey: zone,
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: labels },
  nodeTaintsPolicy: policy,
});
const owner = (name: string, policy: 'Honor' | 'Ignore', extra: Partial<Pod['spec']> = {}): Pod =>
  makePod({ name, cpu: '100m', labels, topologySpreadConstraints: [spread(policy)], ...extra });
/** Matching pods already running (they tolerate the team taint). */
const running = (n: number, prefix: string): Pod[] =>
  Array.from({ length: n }, (_, i) =>
    makePod({ name: `${prefix}${i}`, cpu: '100m', labels, tolerations: [{ key: 'team', operator: 'Exists' }] }),
  );
const node = (name: string, inZone: string, opts: { taints?: Taint[]; pods?: Pod[] } = {}): ExistingNode => ({
  name,
  labels: { [zone]: inZone, [hostname]: name },
  allocatable: { cpu: '8', memory: '16Gi', pods: '50' },
  taints: opts.taints,
  pods: opts.pods ?? [],
});
const key = (p: Pod): string => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;

function place(nodes: ExistingNode[], placed: [Pod, string][]): { input: SchedulingInput; result: SchedulingResult } {
  const input: SchedulingInput = {
    pods: placed.map(([p]) => p),
    nodes,
    nodePools: [makeNodePool()],
    instanceTypes: [
      makeInstanceType({ name: 'm', cpu: 4, memGi: 8, price: 0.1, zones: ['zone-a', 'zone-b', 'zone-c'] }),
    ],
  };
  const result: SchedulingResult = {
    existingNodes: placed.map(([p, n]) => ({ pod: key(p), node: n })),
    nominated: [],
    newNodeClaims: [],
    unplaced: [],
    cost: 0,
  };
  return { input, result };
}

const spreadViolations = (c: { input: SchedulingInput; result: SchedulingResult }): number =>
  checkPlacement(c.input, c.result).filter((v) => v.family === 'topology-spread').length;

/** One owner per zone on untainted nodes; zone-a also has a tainted node running two matching pods. */
function onePerZone(
  policy: 'Honor' | 'Ignore',
  extra: Partial<Pod['spec']> = {},
): { input: SchedulingInput; result: SchedulingResult } {
  const nodes = [
    node('t1', 'zone-a', { taints: [team], pods: running(2, 'r') }),
    node('a1', 'zone-a'),
    node('b1', 'zone-b'),
    node('c1', 'zone-c'),
  ];
  return place(nodes, [
    [owner('o1', policy, extra), 'a1'],
    [owner('o2', policy, extra), 'b1'],
    [owner('o3', policy, extra), 'c1'],
  ]);
}

/** Two owners each in zone-b and zone-c; zone-a holds an empty node with `taints` and a tainted node running four. */
function noneInA(policy: 'Honor' | 'Ignore', taints: Taint[]): { input: SchedulingInput; result: SchedulingResult } {
  const nodes = [
    node('t1', 'zone-a', { taints: [team], pods: running(4, 'r') }),
    node('a1', 'zone-a', { taints }),
    node('b1', 'zone-b'),
    node('c1', 'zone-c'),
  ];
  const owners = ['o1', 'o2', 'o3', 'o4'].map((n) => owner(n, policy));
  return place(
    nodes,
    owners.map((o, i): [Pod, string] => [o, i < 2 ? 'b1' : 'c1']),
  );
}

// kube-scheduler's PodTopologySpread (matchNodeInclusionPolicies): with nodeTaintsPolicy Honor a node with a
// NoSchedule or NoExecute taint the incoming pod does not tolerate is left out entirely: its pods are not counted
// and it provides no domain for the minimum. PreferNoSchedule taints never exclude a node.
describe('topology spread with nodeTaintsPolicy', () => {
  it('Honor: pods on a node whose taint the owner does not tolerate are not counted', () => {
    expect(spreadViolations(onePerZone('Honor'))).toBe(0);
  });

  it('Ignore: the same pods are counted, and zone-a is over the skew', () => {
    expect(spreadViolations(onePerZone('Ignore'))).toBe(1);
  });

  it('Honor: an owner that tolerates the taint counts those pods', () => {
    expect(spreadViolations(onePerZone('Honor', { tolerations: [{ key: 'team', operator: 'Exists' }] }))).toBe(1);
  });

  it('Honor: an untainted node in zone-a makes it an eligible domain holding none, so two per zone elsewhere is too many', () => {
    expect(spreadViolations(noneInA('Honor', []))).toBe(4);
  });

  it('Honor: a zone whose only free node carries an untolerated taint is no eligible domain', () => {
    expect(spreadViolations(noneInA('Honor', [{ key: 'other', effect: 'NoExecute' }]))).toBe(0);
  });

  it('Honor: a PreferNoSchedule taint does not take a node out of the domains', () => {
    expect(spreadViolations(noneInA('Honor', [{ key: 'other', effect: 'PreferNoSchedule' }]))).toBe(4);
  });

  it('Ignore: the tainted node running four makes zone-a the fullest, so two per zone elsewhere is fine', () => {
    expect(spreadViolations(noneInA('Ignore', []))).toBe(0);
  });
});
