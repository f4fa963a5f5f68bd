import { describe, expect, it } from 'vitest';
import { growingPercentFor, playgroundHeapGrowingPercent, playgroundHeapHeadroomBytes } from './lean-heap.js';

const MB = 2 ** 20;

describe('the playground heap growth', () => {
  it('lets a small heap grow by 20% between full collections', () => {
    expect(growingPercentFor(50 * MB)).toBe(playgroundHeapGrowingPercent);
    expect(growingPercentFor(200 * MB)).toBe(playgroundHeapGrowingPercent);
  });

  it('holds the garbage of a large heap to the headroom', () => {
    // Above 800 MB the 5% floor gives more than the headroom.
    for (const live of [250, 400, 600, 800]) {
      const grown = (live * MB * growingPercentFor(live * MB)) / 100;
      expect(grown).toBeLessThanOrEqual(playgroundHeapHeadroomBytes);
      // Within a percent of it: the growth is not cut further than the headroom asks.
      expect(grown).toBeGreaterThan(playgroundHeapHeadroomBytes - (live * MB) / 100);
    }
  });

  it('never lets a huge heap grow by less than 5%', () => {
    expect(growingPercentFor(8192 * MB)).toBe(5);
  });
});
