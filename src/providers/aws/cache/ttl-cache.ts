/** A bounded cache whose entries expire after a TTL on the injected clock, with single-flight loading. */
import type { Clock } from '../../../clock/index.js';

interface Entry<V> {
  value: V;
  expires: number;
}

/** Options of a TtlCache. */
export interface TtlCacheOptions {
  /** Most entries kept; storing one more drops the least recently stored. */
  maxEntries?: number;
}

/** The default bound: far more keys than a cluster's EC2NodeClasses and selectors produce. */
export const DefaultMaxEntries = 256;

/**
 * Values by key for `ttlMs`; concurrent loads of one key share one call (no call storm under a burst). The
 * cache holds at most `maxEntries` entries, and expired entries are swept at least once a TTL even when their
 * key is never read again (a key that is never asked for twice must not stay forever).
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly inflight = new Map<string, Promise<V>>();
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private nextSweep: number;

  constructor(clock: Clock, ttlMs: number, options: TtlCacheOptions = {}) {
    this.clock = clock;
    this.ttlMs = ttlMs;
    this.maxEntries = Math.max(1, options.maxEntries ?? DefaultMaxEntries);
    this.nextSweep = clock.now() + ttlMs;
  }

  /** How many entries are held (expired ones not yet swept included). */
  get size(): number {
    return this.entries.size;
  }

  /** The fresh value of `key`, if any. */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= this.clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Stores a value, dropping expired entries (once a TTL) and the oldest ones past the bound. */
  set(key: string, value: V): void {
    const now = this.clock.now();
    if (now >= this.nextSweep) this.sweep(now);
    // Re-inserting moves the key to the end of the Map's order, so the first key is the least recently stored.
    this.entries.delete(key);
    this.entries.set(key, { value, expires: now + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  /** Forgets a key (or everything). */
  invalidate(key?: string): void {
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }

  /**
   * The cached value, or the result of `load` (stored unless `keep` says no). One load per key at a time:
   * callers arriving while it runs get the same promise. A cached value `fresh` rejects is loaded again.
   */
  async getOrLoad(
    key: string,
    load: () => Promise<V>,
    keep: (v: V) => boolean = () => true,
    fresh: (v: V) => boolean = () => true,
  ): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined && fresh(cached)) return cached;
    const running = this.inflight.get(key);
    if (running) return running;
    const p = (async () => {
      try {
        const v = await load();
        if (keep(v)) this.set(key, v);
        return v;
      } finally {
        this.inflight.delete(key);
      }
    })();
    this.inflight.set(key, p);
    return p;
  }

  private sweep(now: number): void {
    for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
    this.nextSweep = now + this.ttlMs;
  }
}
