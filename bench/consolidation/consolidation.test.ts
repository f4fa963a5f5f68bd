import { describe, expect, it } from 'vitest';
import { runConsolidation } from './consolidation-suite.js';

describe('consolidation benchmark', () => {
  it('reports the issue keys, saves money and never beats its lower bound', async () => {
    const row = await runConsolidation({ nodes: 40, seed: 7, keep: 0.35, catalog: 'ec2', maxPasses: 50 });
    expect(Object.keys(row)).toEqual([
      'suite',
      'nodes',
      'seconds',
      'msPerCandidate',
      'costBefore',
      'costAfter',
      'lowerBound',
    ]);
    expect(row.costAfter).toBeLessThan(row.costBefore);
    expect(row.lowerBound).toBeLessThanOrEqual(row.costAfter);
    expect(row.lowerBound).toBeGreaterThan(0);
  });
});

describe('consolidation quality (issue 11)', () => {
  it('brings an underused 100-node fleet within 10% of the lower bound', async () => {
    // The case that used to end on one m6a.48xlarge at 1.13x the bound: it now mixes compute- and general-purpose nodes.
    const row = await runConsolidation({ nodes: 100, seed: 42, keep: 0.35, catalog: 'ec2', maxPasses: 50 });
    expect(row.costAfter).toBeLessThanOrEqual(1.1 * row.lowerBound);
  });
});
