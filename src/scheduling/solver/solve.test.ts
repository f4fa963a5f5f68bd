import { describe, expect, it } from 'vitest';
import type { InFlightNodeClaim, Pod } from '../model.js';
import { makeNodePool, makePod, smallCatalog } from '../testing/factories.js';
import { solve } from './solve.js';

describe('solve', () => {
  it('karpenter-ffd packs a small batch into one NodeClaim and launches the cheapest type that holds it', () => {
    const pods = Array.from({ length: 3 }, () => makePod({ cpu: '1', memory: '1Gi' }));
    const r = solve({ pods, nodePools: [makeNodePool()], instanceTypes: smallCatalog(), strategy: 'karpenter-ffd' });
    expect(r.unplaced).toEqual([]);
    expect(r.newNodeClaims).toHaveLength(1);
    expect(r.newNodeClaims[0]?.cheapest.instanceType).toBe('m.4x');
    expect(r.newNodeClaims[0]?.pods).toHaveLength(3);
    expect(r.newNodeClaims[0]?.instanceTypeOptions).toEqual(['m.4x', 'm.8x', 'm.16x', 'm.32x', 'm.64x']);
  });

  it('tenon finds a cheaper fleet than first-fit-decreasing when small types are as cost-efficient', () => {
    const pods = Array.from({ length: 3 }, () => makePod({ cpu: '1', memory: '1Gi' }));
    const base = { pods, nodePools: [makeNodePool()], instanceTypes: smallCatalog() };
    const tenon = solve(base);
    const ffd = solve({ ...base, strategy: 'karpenter-ffd' });
    expect(tenon.unplaced).toEqual([]);
    expect(tenon.cost).toBeLessThan(ffd.cost);
  });

  it('explains a pod too large for every instance type', () => {
    const r = solve({ pods: [makePod({ cpu: '100' })], nodePools: [makeNodePool()], instanceTypes: smallCatalog() });
    expect(r.newNodeClaims).toEqual([]);
    expect(r.unplaced[0]?.reasons[0]?.constraint).toBe('resources');
  });
});

describe('pods nominated to in-flight NodeClaims by an earlier pass', () => {
  // The plan that launched them: a (4 CPU) for two 2-CPU pods, b (3 CPU) for a 3-CPU pod. Re-packed largest first,
  // the 3-CPU pod takes a, one 2-CPU pod b, and the other needs a NodeClaim of its own.
  const inFlight = (name: string, cpu: number, nominatedPods?: string[]): InFlightNodeClaim => ({
    name,
    nodePool: 'default',
    labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/arch': 'amd64', 'kubernetes.io/os': 'linux' },
    allocatable: { cpu: String(cpu), memory: '16Gi', pods: '110' },
    initialized: false,
    pods: [],
    nominatedPods,
  });
  const pods = (): Pod[] => [
    makePod({ name: 'two-1', cpu: '2', memory: '1Gi' }),
    makePod({ name: 'two-2', cpu: '2', memory: '1Gi' }),
    makePod({ name: 'three', cpu: '3', memory: '1Gi' }),
  ];
  const base = { nodePools: [makeNodePool()], instanceTypes: smallCatalog() };

  it('keeps them where they were planned, launching nothing more', () => {
    const r = solve({
      ...base,
      pods: pods(),
      nodeClaims: [inFlight('a', 4, ['default/two-1', 'default/two-2']), inFlight('b', 3, ['default/three'])],
    });
    expect(r.newNodeClaims).toEqual([]);
    expect(new Map(r.nominated.map((n) => [n.pod, n.nodeClaim]))).toEqual(
      new Map([
        ['default/two-1', 'a'],
        ['default/two-2', 'a'],
        ['default/three', 'b'],
      ]),
    );
  });

  it('would launch another NodeClaim for them without the nominations', () => {
    const r = solve({ ...base, pods: pods(), nodeClaims: [inFlight('a', 4), inFlight('b', 3)] });
    expect(r.newNodeClaims).toHaveLength(1);
  });
});
