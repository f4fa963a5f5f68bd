/** Seeded randomness for the simulated EC2: every draw is a pure function of the seed and a name. */

/** A 32-bit FNV-1a hash of `text`, mixed with `seed`, so per-name draws are stable across runs. */
export function hash32(seed: number, text: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // A final avalanche (murmur3 fmix) so similar names do not get similar numbers.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform number in [0, 1) determined by the seed and `name`. */
export function unitDraw(seed: number, name: string): number {
  return hash32(seed, name) / 0x100000000;
}

/** A deterministic sequence of numbers in [0, 1) (mulberry32). */
export class SeededRandom {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The next number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x100000000;
  }

  /** `digits` lowercase hex digits, as EC2 resource ids carry (`i-0abc…`). */
  hex(digits: number): string {
    let out = '';
    while (out.length < digits)
      out += Math.floor(this.next() * 0x10000)
        .toString(16)
        .padStart(4, '0');
    return out.slice(0, digits);
  }
}
