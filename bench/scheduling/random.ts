/** A small seeded random source (mulberry32) so every workload is reproducible from `--seed`. */
import { SeededRandom } from '../../src/sim/ec2/random.js';

/** A seeded generator of floats in [0, 1) with a few helpers. */
export class Rng extends SeededRandom {
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    const v = items[this.int(items.length)];
    if (v === undefined) throw new Error('pick from an empty list');
    return v;
  }
}
