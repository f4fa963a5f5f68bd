/** The cost suite's NodeOverlay and CapacityBuffer workloads do what they claim (small sizes). */
import { describe, expect, it } from 'vitest';
import { lowerBound, solve, type SchedulingInput } from '../../src/scheduling/index.js';
import { ec2InstanceTypes } from './ec2-catalog.js';
import { costWorkloads } from './cost-workloads.js';
import { loadHighs } from './highs.js';

function build(name: string, pods: number): SchedulingInput {
  const w = costWorkloads.find((x) => x.name === name);
  if (!w) throw new Error(`no workload ${name}`);
  return w.build(pods, 42);
}

const family = (type: string): string => type.split('.')[0] ?? '';

describe('cost workloads of NodeOverlay and CapacityBuffer', { timeout: 120_000 }, () => {
  it('overlay-price: the overlay makes m7i the choice, and the lower bound prices with the overlay', async () => {
    const input = build('overlay-price', 40);
    const plain = { ...input, instanceTypes: ec2InstanceTypes({ zoneCount: 3, seed: 42 }) };
    const withOverlay = solve(input);
    const without = solve(plain);
    expect(new Set(withOverlay.newNodeClaims.map((c) => family(c.cheapest.instanceType)))).toEqual(new Set(['m7i']));
    expect(without.newNodeClaims.some((c) => family(c.cheapest.instanceType) === 'm7i')).toBe(false);
    const solveLp = await loadHighs();
    const overlaidBound = lowerBound(input, { solveLp, maxIterations: 10, domains: 'karpenter' }).lowerBound;
    const plainBound = lowerBound(plain, { solveLp, maxIterations: 10, domains: 'karpenter' }).lowerBound;
    // A bound at list prices could not sit below the overlaid fleet's cost: the overlay's prices must be in it.
    expect(withOverlay.cost).toBeLessThan(plainBound);
    expect(overlaidBound).toBeLessThanOrEqual(withOverlay.cost + 1e-6);
    expect(overlaidBound).toBeGreaterThan(0);
  });

  it('overlay-capacity: pods needing the overlaid resource go only to c7i, at most two a node', () => {
    const input = build('overlay-capacity', 40);
    const licensed = new Set(
      input.pods
        .filter((p) => p.spec.containers.some((c) => c.resources?.requests?.['example.com/licence'] !== undefined))
        .map((p) => p.metadata.name),
    );
    expect(licensed.size).toBe(10);
    const result = solve(input);
    expect(result.unplaced).toEqual([]);
    for (const claim of result.newNodeClaims) {
      const mine = claim.pods.filter((k) => licensed.has(k.split('/').pop() ?? ''));
      if (mine.length === 0) continue;
      expect(mine.length).toBeLessThanOrEqual(2);
      expect(new Set(claim.instanceTypeOptions.map(family))).toEqual(new Set(['c7i']));
    }
  });

  it('capacity-buffer: 20% more pods, as the buffer resolves them, all placed and paid for', () => {
    const input = build('capacity-buffer', 50);
    expect(input.pods).toHaveLength(60);
    expect(input.pods.filter((p) => p.metadata.name?.startsWith('capacitybuffer-web-headroom-'))).toHaveLength(10);
    const buffered = solve(input);
    const real = solve({ ...input, pods: input.pods.slice(0, 50) });
    expect(buffered.unplaced).toEqual([]);
    expect(buffered.cost).toBeGreaterThan(real.cost);
  });
});
