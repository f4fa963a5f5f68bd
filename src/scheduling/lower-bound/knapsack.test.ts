import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gridBest, gridBound } from './grid.js';
import { bestConfiguration, fractionalBound, type Pricing } from './knapsack.js';

/** The best configuration's value by enumerating every count of every class (at most one member per anti group). */
function bruteForce(p: Pricing): number {
  let best = 0;
  const counts = p.items.map(() => 0);
  const go = (i: number): void => {
    if (i === p.items.length) {
      const fits = p.capacity.every(
        (c, k) => p.items.reduce((s, it, j) => s + (counts[j] ?? 0) * (it.weight[k] ?? 0), 0) <= c + 1e-12,
      );
      const groups = new Map<string, number>();
      p.items.forEach((it, j) => {
        if (it.anti !== undefined) groups.set(it.anti, (groups.get(it.anti) ?? 0) + (counts[j] ?? 0));
      });
      if (fits && [...groups.values()].every((n) => n <= 1))
        best = Math.max(
          best,
          p.items.reduce((s, it, j) => s + (counts[j] ?? 0) * it.value, 0),
        );
      return;
    }
    const it = p.items[i];
    for (let n = 0; n <= (it?.bound ?? 0); n++) {
      counts[i] = n;
      go(i + 1);
    }
    counts[i] = 0;
  };
  go(0);
  return best;
}

const pricingArb: fc.Arbitrary<Pricing> = fc
  .record({
    capacity: fc.tuple(
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1, max: 9 }),
    ),
    items: fc.array(
      fc.record({
        cpu: fc.integer({ min: 0, max: 15 }),
        mem: fc.integer({ min: 0, max: 15 }),
        bound: fc.integer({ min: 0, max: 4 }),
        value: fc.integer({ min: 0, max: 50 }),
        anti: fc.constantFrom(undefined, 'a', 'b'),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  })
  .map(({ capacity, items }) => ({
    capacity: capacity.map((c, k) => c / (k === 2 ? 10 : 40)),
    grain: [1 / 40, 1 / 40, 0.1],
    items: items.map((it, cls) => ({
      cls,
      weight: [it.cpu / 40, it.mem / 40, 0.1],
      bound: it.anti === undefined ? it.bound : Math.min(1, it.bound),
      value: it.value / 10,
      anti: it.anti,
    })),
  }));

describe('pricing', () => {
  it('finds the best configuration exactly, and no bound falls below it', () => {
    fc.assert(
      fc.property(pricingArb, (p) => {
        const exact = bruteForce(p);
        const found = bestConfiguration(p, 1e6);
        expect(found.proven).toBe(true);
        expect(found.value).toBeCloseTo(exact, 9);
        expect(fractionalBound(p)).toBeGreaterThanOrEqual(exact - 1e-9);
        expect(gridBound(p) ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(exact - 1e-9);
        expect(gridBound(p, 1e6) ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(exact - 1e-9);
        expect(gridBound(p, 40) ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(exact - 1e-9);
        expect(gridBest(p, 40)?.value ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(exact - 1e-9);
        const dp = gridBest(p, 1e6);
        if (dp) {
          expect(dp.value).toBeGreaterThanOrEqual(exact - 1e-9);
          if (dp.fits) {
            const value = [...dp.counts].reduce((s, [cls, n]) => s + n * (p.items[cls]?.value ?? 0), 0);
            expect(value).toBeCloseTo(dp.value, 9);
            expect(dp.value).toBeCloseTo(exact, 9);
          }
        }
      }),
      { numRuns: 200, seed: 31 },
    );
  });
});
