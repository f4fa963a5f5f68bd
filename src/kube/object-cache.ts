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

  /** Stores an object, re-indexing it. */
  set(obj: T): void {
    const key = keyOf(obj);
    this.unindex(key);
    this.items.set(key, obj);
    for (const [name, fn] of Object.entries(this.indexers)) {
      const index = this.indexes.get(name);
      if (!index) continue;
      for (const v of fn(obj)) {
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
      for (const v of fn(old)) {
        const keys = index?.get(v);
        keys?.delete(key);
        if (keys && keys.size === 0) index?.delete(v);
      }
    }
  }
}
