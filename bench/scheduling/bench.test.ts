import { describe, expect, it } from 'vitest';
import { runCost } from './cost-suite.js';
import { runRemoval } from './removal-bench.js';
import { runScheduling } from './scheduling-suite.js';

const schedulingKeys = [
  'suite',
  'workload',
  'pods',
  'seconds',
  'podsPerSecond',
  'nodeClaims',
  'violations',
  'unscheduled',
];
const costKeys = [
  'suite',
  'workload',
  'pods',
  'cost',
  'ffdCost',
  'lowerBound',
  'costToLowerBound',
  'costToFfd',
  'violations',
  'seconds',
];

describe('scheduling benchmark (small size)', () => {
  it('prints the JSON line in the agreed shape', () => {
    const row = runScheduling({ pods: 50, workload: 'karpenter-diverse', seed: 42 });
    expect(Object.keys(row)).toEqual(schedulingKeys);
    expect(row).toMatchObject({ suite: 'scheduling', workload: 'karpenter-diverse', pods: 50 });
    expect(row.nodeClaims).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(row))).toEqual(row);
  });

  // Karpenter's diverse mix: its spread selectors (my-label=<random>) also select pods that do not carry the
  // constraint, and its zone affinity groups must stay in one zone; the checker counts both over the final placement.
  it('finds no violations and leaves no pod unscheduled on karpenter-diverse', () => {
    const row = runScheduling({ pods: 100, workload: 'karpenter-diverse', seed: 42 });
    expect(row.violations).toBe(0);
    expect(row.unscheduled).toBe(0);
  });
});

describe('removal benchmark (small cluster)', () => {
  it('answers every candidate of a roomy cluster as feasible and reports the time per candidate', () => {
    const row = runRemoval({ nodes: 40, seed: 42 });
    expect(Object.keys(row)).toEqual(['suite', 'workload', 'nodes', 'candidates', 'msPerCandidate', 'feasible']);
    expect(row).toMatchObject({ suite: 'scheduling', workload: 'removal', nodes: 40, candidates: 40, feasible: 40 });
    expect(row.msPerCandidate).toBeGreaterThan(0);
  });
});

// Each runs the lower bound's column generation (HiGHS): seconds alone, far longer on a loaded machine.
describe('cost benchmark (quick sizes)', { timeout: 180_000 }, () => {
  it('prints the JSON line in the agreed shape, with a bound no higher than either cost', async () => {
    for (const workload of ['uniform-small', 'hostname-anti-affinity', 'nodepool-limit', 'existing-nodes']) {
      const row = await runCost({ workload, seed: 42, quick: true });
      expect(Object.keys(row)).toEqual(costKeys);
      expect(row.violations).toBe(0);
      expect(row.lowerBound).toBeLessThanOrEqual(row.cost + 1e-6);
      expect(row.lowerBound).toBeLessThanOrEqual(row.ffdCost + 1e-6);
    }
  });

  // The same mix on the EC2 catalog (the placement only: the bound's properties are tested in lower-bound/).
  it('finds no violations on the diverse mix', async () => {
    expect((await runCost({ workload: 'diverse', seed: 42, quick: true, bound: false })).violations).toBe(0);
  });
});
