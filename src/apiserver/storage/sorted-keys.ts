/**
 * A table's keys in sorted order, kept up to date without sorting them all again. List pagination walks them, and a
 * table of 340,000 Events that gains an Event between two pages had been sorted again for each page: a paged list
 * of all Events took minutes. Changes are collected and merged into a new array the next time the order is read,
 * in linear time; an array once handed out never changes.
 */

/** `a` and `b` (each sorted) as one sorted array. */
export function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = new Array<string>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = (a[i] ?? '') <= (b[j] ?? '') ? (a[i++] ?? '') : (b[j++] ?? '');
  while (i < a.length) out[k++] = a[i++] ?? '';
  while (j < b.length) out[k++] = b[j++] ?? '';
  return out;
}

/** The sorted keys of a set of keys that changes one key at a time. */
export class SortedKeys {
  private sorted: readonly string[] | undefined;
  private readonly added = new Set<string>();
  private readonly removed = new Set<string>();

  /** `all` lists the current keys, in any order (read only when the order must be built from scratch). */
  constructor(private readonly all: () => Iterable<string>) {}

  /** A key that was not there is. */
  add(key: string): void {
    if (!this.sorted) return;
    if (!this.removed.delete(key)) this.added.add(key);
  }

  /** A key that was there is gone. */
  remove(key: string): void {
    if (!this.sorted) return;
    if (!this.added.delete(key)) this.removed.add(key);
  }

  /** Forgets the order (the keys were replaced wholesale). */
  reset(): void {
    this.sorted = undefined;
    this.added.clear();
    this.removed.clear();
  }

  /** The keys in order (an array the caller must not change, and that later changes leave as it is). */
  keys(): readonly string[] {
    const pending = this.added.size + this.removed.size;
    if (this.sorted && pending === 0) return this.sorted;
    // Many changes at once (a bulk load): sorting from scratch is as quick.
    if (!this.sorted || pending > this.sorted.length / 4) {
      this.sorted = [...this.all()].sort();
    } else {
      const kept = this.removed.size > 0 ? this.sorted.filter((k) => !this.removed.has(k)) : this.sorted;
      this.sorted = mergeSorted(kept, [...this.added].sort());
    }
    this.added.clear();
    this.removed.clear();
    return this.sorted;
  }
}
