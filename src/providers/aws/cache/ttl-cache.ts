/** A cache whose entries expire after a TTL on the injected clock, with single-flight loading. */
import type { Clock } from '../../../clock/index.js';

interface Entry<V> {
  value: V;
  expires: number;
}

/** Values by key for `ttlMs`; concurrent loads of one key share one call (no call storm under a burst). */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly inflight = new Map<string, Promise<V>>();
  private readonly clock: Clock;
  private readonly ttlMs: number;

  constructor(clock: Clock, ttlMs: number) {
    this.clock = clock;
    this.ttlMs = ttlMs;
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

  /** Stores a value. */
  set(key: string, value: V): void {
    this.entries.set(key, { value, expires: this.clock.now() + this.ttlMs });
  }

  /** Forgets a key (or everything). */
  invalidate(key?: string): void {
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }

  /**
   * The cached value, or the result of `load` (stored unless `keep` says no). One load per key at a time:
   * callers arriving while it runs get the same promise.
   */
  async getOrLoad(key: string, load: () => Promise<V>, keep: (v: V) => boolean = () => true): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
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
}
