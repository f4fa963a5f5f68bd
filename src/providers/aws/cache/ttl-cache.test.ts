import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../clock/index.js';
import { TtlCache } from './ttl-cache.js';

describe('TtlCache', () => {
  it('drops expired entries whose keys are never read again', () => {
    const clock = new FakeClock(0);
    const cache = new TtlCache<number>(clock, 1000);
    for (let i = 0; i < 50; i++) cache.set(`once-${i}`, i);
    clock.advance(1000);
    cache.set('later', 1);
    expect(cache.size).toBe(1);
    expect(cache.get('later')).toBe(1);
  });

  it('holds at most maxEntries, dropping the least recently stored', () => {
    const clock = new FakeClock(0);
    const cache = new TtlCache<number>(clock, 60_000, { maxEntries: 3 });
    for (const k of ['a', 'b', 'c']) cache.set(k, 0);
    cache.set('a', 1);
    cache.set('d', 2);
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('d')).toBe(2);
  });

  it('loads again when a cached value is no longer fresh, under the same key', async () => {
    const clock = new FakeClock(0);
    const cache = new TtlCache<{ version: number }>(clock, 60_000);
    let version = 1;
    const load = (): Promise<{ version: number }> => Promise.resolve({ version });
    expect((await cache.getOrLoad('k', load)).version).toBe(1);
    version = 2;
    expect((await cache.getOrLoad('k', load, undefined, (v) => v.version === version)).version).toBe(2);
    expect(cache.size).toBe(1);
  });
});
