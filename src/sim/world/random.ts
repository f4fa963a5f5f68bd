/** The world's seeded randomness: every agent draws from its own stream, so one agent's draws never shift another's. */

/** A deterministic random stream (xorshift-multiply over a 32-bit state). */
export class Rng {
  private state: number;

  /** A stream for `seed`. */
  constructor(seed: number) {
    this.state = (seed ^ 0x9e3779b9) >>> 0 || 1;
  }

  /** An independent stream for a named consumer (an agent, a node). */
  fork(name: string): Rng {
    let h = this.state;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
    return new Rng(h);
  }

  /** A number in [0, 1). */
  next(): number {
    let x = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 0x100000000;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A duration in [range.min, range.max] ms. */
  between(range: { min: number; max: number }): number {
    return range.min + Math.floor(this.next() * Math.max(0, range.max - range.min));
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('Rng.pick of an empty list');
    return item;
  }

  /** `n` lowercase alphanumerics, as the ReplicaSet and Job controllers suffix pod names. */
  suffix(n: number): string {
    // The alphabet of k8s.io/apimachinery's rand.String: no vowels, no confusable digits.
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.next() * alphabet.length)] ?? 'x';
    return out;
  }
}
