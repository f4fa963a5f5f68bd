/**
 * Controller expectations (as kube-controller-manager's): after creating or deleting pods, a controller waits
 * until its informer has seen those changes before computing the difference again, so a stale cache never
 * makes it create or delete twice. Expectations lapse after a timeout in case an event was lost.
 */
import type { Clock } from '../../clock/index.js';

interface Expected {
  adds: number;
  deletes: number;
  at: number;
}

/** Outstanding creations and deletions per controller key. */
export class Expectations {
  private readonly byKey = new Map<string, Expected>();

  /** Expectations on `clock`, lapsing after `ttlMs` (default 5 min, as upstream). */
  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = 300_000,
  ) {}

  /** Records that `adds` creations and `deletes` deletions are on their way. */
  expect(key: string, adds: number, deletes: number): void {
    this.byKey.set(key, { adds, deletes, at: this.clock.now() });
  }

  /** An observed creation. */
  created(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.adds = Math.max(0, e.adds - 1);
  }

  /** An observed deletion (or a creation or deletion that failed). */
  deleted(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.deletes = Math.max(0, e.deletes - 1);
  }

  /** True when nothing is outstanding (or what is has lapsed). */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    if ((e.adds <= 0 && e.deletes <= 0) || this.clock.now() - e.at > this.ttlMs) {
      this.byKey.delete(key);
      return true;
    }
    return false;
  }

  /** Forgets a controller. */
  forget(key: string): void {
    this.byKey.delete(key);
  }
}

/**
 * Runs `each` over `items` in order. When one throws, the changes not attempted will never be observed: `release`
 * is called for each of them (upstream lowers expectations for skipped pods the same way), then the error is
 * rethrown so the key backs off and comes again.
 */
export async function inOrder<T>(
  items: readonly T[],
  each: (x: T) => Promise<void>,
  release: (skipped: T) => void,
): Promise<void> {
  for (const [i, x] of items.entries()) {
    try {
      await each(x);
    } catch (e) {
      for (const skipped of items.slice(i + 1)) release(skipped);
      throw e;
    }
  }
}
