import { describe, expect, it } from 'vitest';
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
