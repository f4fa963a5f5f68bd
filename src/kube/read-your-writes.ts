import type { ObjectCache } from './object-cache.js';
import type { KubeObject } from './resources.js';

/**
 * Read-your-writes over an informer cache. After a controller writes an object, the cache may still hold the
 * copy from before the write until the watch delivers the change; reconciling from that stale copy would redo
 * work already done (e.g. launch a second instance). While the cache shows a version this controller has
 * already written past, `get` returns the controller's own latest write instead.
 */
export class ReadYourWrites<T extends KubeObject> {
  private readonly pending = new Map<string, { stale: Set<string>; latest: T }>();

  /** Overlays `cache`. */
  constructor(private readonly cache: ObjectCache<T>) {}

  /** The freshest copy this controller knows of `key`. */
  get(key: string): T | undefined {
    const cached = this.cache.get(key);
    const mine = this.pending.get(key);
    if (!mine || !cached) return cached;
    if (mine.stale.has(cached.metadata.resourceVersion ?? '')) return mine.latest;
    this.pending.delete(key);
    return cached;
  }

  /** Records that the object at `before`'s version was written, and the server answered with `after`. */
  wrote(key: string, before: T, after: T): void {
    const entry = this.pending.get(key) ?? { stale: new Set<string>(), latest: after };
    entry.stale.add(before.metadata.resourceVersion ?? '');
    if (entry.latest !== after) entry.stale.add(entry.latest.metadata.resourceVersion ?? '');
    entry.stale.delete(after.metadata.resourceVersion ?? '');
    entry.latest = after;
    this.pending.set(key, entry);
  }
}
