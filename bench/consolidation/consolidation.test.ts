import { describe, expect, it } from 'vitest';
import { runConsolidation } from './consolidation-suite.js';

describe('consolidation benchmark', () => {
  it('reports the issue keys, saves money and never beats its lower bound', async () => {
    const row = await runConsolidation({ nodes: 40, seed: 7, keep: 0.35, catalog: 'ec2', maxPasses: 50 });
    expect(Object.keys(row)).toEqual(['suite', 'nodes', 'seconds', 'msPerCandidate', 'costBefore', 'costAfter', 'lowerBound']);
    expect(row.costAfter).toBeLessThan(row.costBefore);
    expect(row.lowerBound).toBeLessThanOrEqual(row.costAfter);
    expect(row.lowerBound).toBeGreaterThan(0);
  });
});
