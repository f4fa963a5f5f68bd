import { keyOf, type KubeObject } from './resources.js';

/** Index functions: each maps an object to the index values it is found under. */
export type Indexers<T> = Record<string, (obj: T) => string[]>;

/** Objects by key, with secondary indexes kept up to date on every write. */
export class ObjectCache<T extends KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indexes = new Map<string, Map<string, Set<string>>>();
  private readonly indexers: Indexers<T> = {};

  /** Creates an empty cache with the given indexers. */
  constructor(indexers: Indexers<T>) {
    this.addIndexers(indexers);
  }

  /** Adds indexers (a name already present keeps its function) and indexes the objects already cached. */
  addIndexers(indexers: Indexers<T>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.indexes.has(name)) continue;
      const index = new Map<string, Set<string>>();
      this.indexers[name] = fn;
      this.indexes.set(name, index);
      for (const [key, obj] of this.items) for (const v of fn(obj)) index.set(v, (index.get(v) ?? new Set()).add(key));
    }
  }

  /** The object under a key. */
  get(key: string): T | undefined {
    return this.items.get(key);
  }

  /** Every cached object. */
  list(): T[] {
    return [...this.items.values()];
  }

  /** How many objects are cached. */
  get size(): number {
    return this.items.size;
  }

  /** The objects an index maps `value` to. */
  byIndex(name: string, value: string): T[] {
    const keys = this.indexes.get(name)?.get(value);
    if (!keys) return [];
    const out: T[] = [];
    for (const k of keys) {
      const o = this.items.get(k);
      if (o) out.push(o);
    }
    return out;
  }

  /** Stores an object, re-indexing it where its index values changed. */
  set(obj: T): void {
    const key = keyOf(obj);
    const old = this.items.get(key);
    this.items.set(key, obj);
    for (const [name, fn] of Object.entries(this.indexers)) {
      const index = this.indexes.get(name);
      if (!index) continue;
      const values = fn(obj);
      const before = old ? fn(old) : [];
      // Most updates keep the values (a pod's status changes, not its node): the sets keep the key they hold.
      if (values.length === before.length && values.every((v, i) => v === before[i])) continue;
      for (const v of before) removeKey(index, v, key);
      for (const v of values) {
        let keys = index.get(v);
        if (!keys) index.set(v, (keys = new Set()));
        keys.add(key);
      }
    }
  }

  /** Removes an object. */
  delete(key: string): void {
    this.unindex(key);
    this.items.delete(key);
  }

  private unindex(key: string): void {
    const old = this.items.get(key);
    if (!old) return;
    for (const [name, fn] of Object.entries(this.indexers)) {
      const index = this.indexes.get(name);
      if (index) for (const v of fn(old)) removeKey(index, v, key);
    }
  }
}

/** Takes `key` out of an index's set for `value`, dropping the set once empty. */
function removeKey(index: Map<string, Set<string>>, value: string, key: string): void {
  const keys = index.get(value);
  keys?.delete(key);
  if (keys && keys.size === 0) index.delete(value);
}
