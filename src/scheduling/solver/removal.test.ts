// The disruption helper: removing nodes and re-placing their pods on what remains plus at most one NodeClaim.
import { describe, expect, it } from 'vitest';
import type { ExistingNode, Pod } from '../model.js';
import { makeNodePool, makePod, smallCatalog } from '../testing/factories.js';
import { RemovalSimulator, simulateRemoval } from './removal.js';

const node = (name: string, pods: Pod[], cpu = '4'): ExistingNode => ({
  name,
  labels: {
    'kubernetes.io/hostname': name,
    'topology.kubernetes.io/zone': 'test-zone-a',
    'karpenter.sh/nodepool': 'default',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'linux',
  },
  allocatable: { cpu, memory: '16Gi', pods: '110' },
  pods: pods.map((p) => ({ ...p, spec: { ...p.spec, nodeName: name } })),
  price: 0.2,
});
const cluster = (nodes: ExistingNode[]) => ({
  pods: [],
  nodes,
  nodePools: [makeNodePool()],
  instanceTypes: smallCatalog(),
});

describe('simulateRemoval', () => {
  it('moves the pods of a removed node onto the free capacity of the others', () => {
    const r = simulateRemoval(
      cluster([node('a', [makePod({ name: 'x', cpu: '1' })]), node('b', [makePod({ cpu: '1' })])]),
      ['a'],
    );
    expect(r.feasible).toBe(true);
    expect(r.placements).toEqual([{ pod: 'default/x', node: 'b' }]);
    expect(r.replacement).toBeUndefined();
    expect(r.savings).toBeCloseTo(0.2);
  });

  it('needs one replacement when the rest is full, and prices it', () => {
    const r = simulateRemoval(cluster([node('a', [makePod({ cpu: '3' })]), node('b', [makePod({ cpu: '3500m' })])]), [
      'a',
    ]);
    expect(r.feasible).toBe(true);
    expect(r.replacement?.cheapest.instanceType).toBe('m.4x');
    expect(r.replacementPrice).toBeCloseTo(0.2);
    expect(r.savings).toBeCloseTo(0);
  });

  it("frees the removed nodes' share of the NodePool limits for the replacement", () => {
    const c = {
      ...cluster([node('a', [makePod({ cpu: '3' })]), node('b', [makePod({ cpu: '3500m' })])]),
      nodePools: [makeNodePool({ limits: { cpu: '8' } })],
    };
    const r = simulateRemoval(c, ['a']);
    expect(r.feasible).toBe(true);
    expect(r.replacement?.cheapest.instanceType).toBe('m.4x');
  });

  it('is infeasible when the pods would need more than one new NodeClaim', () => {
    const zk = (name: string) =>
      makePod({
        name,
        labels: { app: 'zk' },
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'zk' } } },
            ],
          },
        },
      });
    const r = simulateRemoval(cluster([node('a', [zk('z1')]), node('b', [zk('z2')]), node('c', [zk('z3')])]), [
      'a',
      'b',
    ]);
    expect(r.newNodeClaims).toBe(2);
    expect(r.feasible).toBe(false);
    expect(r.unplaced.length).toBeGreaterThan(0);
  });

  it('leaves DaemonSet pods behind and reports unknown names', () => {
    const ds = makePod({ name: 'ds' });
    ds.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'uid-agent' }];
    const r = simulateRemoval(cluster([node('a', [ds]), node('b', [])]), ['a', 'ghost']);
    expect(r.pods).toEqual([]);
    expect(r.unknown).toEqual(['ghost']);
    expect(r.feasible).toBe(true);
  });

  it('answers many candidates from one snapshot quickly', () => {
    const nodes = Array.from({ length: 300 }, (_, i) =>
      node(
        `n-${String(i).padStart(3, '0')}`,
        Array.from({ length: 6 }, () => makePod({ cpu: '250m', memory: '512Mi' })),
      ),
    );
    const sim = new RemovalSimulator(cluster(nodes));
    sim.simulate(['n-000']);
    const t0 = performance.now();
    for (let i = 1; i <= 50; i++) expect(sim.simulate([`n-${String(i).padStart(3, '0')}`]).feasible).toBe(true);
    // generous bound for a loaded CI machine; measured about 1 ms per candidate at 1,000 nodes (npm run bench -- scheduling --workload removal)
    expect((performance.now() - t0) / 50).toBeLessThan(50);
  });
});
