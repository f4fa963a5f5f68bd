import { describe, expect, it } from 'vitest';
import { freeAddress } from './addresses.js';

describe('private addresses of simulated instances', () => {
  it('draws again when the random address is taken, so no two instances share a node name', () => {
    // The first two draws give the same address; the third another.
    const draws = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.25, 0.75, 0.1];
    const random = { next: (): number => draws.shift() ?? 0 };
    const used = new Set<string>();
    const first = freeAddress(random, used).join('.');
    const second = freeAddress(random, used).join('.');
    expect(first).toBe('10.128.128.128');
    expect(second).toBe('10.64.192.26');
    expect(used).toEqual(new Set([first, second]));
  });
});
