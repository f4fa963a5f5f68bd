import { describe, expect, it } from 'vitest';
import { runCost } from './cost-suite.js';
import { runScheduling } from './scheduling-suite.js';

const schedulingKeys = ['suite', 'workload', 'pods', 'seconds', 'podsPerSecond', 'nodeClaims', 'violations'];
const costKeys = ['suite', 'workload', 'pods', 'cost', 'ffdCost', 'lowerBound', 'costToLowerBound', 'costToFfd', 'violations', 'seconds'];

describe('scheduling benchmark (small size)', () => {
  it('prints the JSON line in the agreed shape', () => {
    const row = runScheduling({ pods: 50, workload: 'karpenter-diverse', seed: 42 });
    expect(Object.keys(row)).toEqual(schedulingKeys);
    expect(row).toMatchObject({ suite: 'scheduling', workload: 'karpenter-diverse', pods: 50 });
    expect(row.nodeClaims).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(row))).toEqual(row);
  });

  // Solver defect (reported to the scheduling engineer): on Karpenter's diverse mix the zone and hostname spread
  // selectors (my-label=<random>) select pods that do not carry the constraint (generic pods, other spread pods), and
  // the solver counts a pod for a spread group only if its NodeClaim's domain is already decided when it lands; pods
  // counted later (NodeClaims narrowed afterwards) and pods on open-zone NodeClaims are never counted, so domains end
  // up skewed past maxSkew 1. Self-affine zone affinity groups are also started in more than one zone.
  it.fails('finds no violations on karpenter-diverse [defect: spread counting of non-constrained selected pods]', () => {
    expect(runScheduling({ pods: 100, workload: 'karpenter-diverse', seed: 42 }).violations).toBe(0);
  });
});

describe('cost benchmark (quick sizes)', () => {
  it('prints the JSON line in the agreed shape, with a bound no higher than either cost', async () => {
    for (const workload of ['uniform-small', 'hostname-anti-affinity', 'nodepool-limit', 'existing-nodes']) {
      const row = await runCost({ workload, seed: 42, quick: true });
      expect(Object.keys(row)).toEqual(costKeys);
      expect(row.violations).toBe(0);
      expect(row.lowerBound).toBeLessThanOrEqual(row.cost + 1e-6);
      expect(row.lowerBound).toBeLessThanOrEqual(row.ffdCost + 1e-6);
    }
  });

  // Same solver defect as above, on the EC2 catalog.
  it.fails('finds no violations on the diverse mix [defect: spread counting of non-constrained selected pods]', async () => {
    expect((await runCost({ workload: 'diverse', seed: 42, quick: true })).violations).toBe(0);
  });
});
