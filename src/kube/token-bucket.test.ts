import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('never accepts more than the burst plus the refill over the time elapsed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.integer({ min: 0, max: 2000 }), { maxLength: 200 }),
        (qps, burst, gaps) => {
          const bucket = new TokenBucket(qps, burst);
          let now = 0;
          let accepted = 0;
          for (const gap of gaps) {
            now += gap;
            if (bucket.tryAccept(now)) accepted++;
          }
          expect(accepted).toBeLessThanOrEqual(burst + (now / 1000) * qps);
        },
      ),
    );
  });

  it('starts full and refills at its rate', () => {
    const bucket = new TokenBucket(5, 10);
    const burst = Array.from({ length: 12 }, () => bucket.tryAccept(0)).filter(Boolean).length;
    expect(burst).toBe(10);
    const second = Array.from({ length: 12 }, () => bucket.tryAccept(1000)).filter(Boolean).length;
    expect(second).toBe(5);
  });
});
