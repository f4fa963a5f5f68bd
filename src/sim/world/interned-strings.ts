/**
 * Shared copies of the string values that repeat across cached objects. JSON.parse makes a new string for every
 * value, so 150,000 cached pods hold 150,000 copies each of "default-scheduler", "/dev/termination-log", "True",
 * their node's name and their ReplicaSet's name. Interning each value as an object enters a cache keeps one.
 */

/** Values longer than this are rarely repeated in objects (and the table would hold them). */
const defaultMaxLength = 96;
/** The table starts over past this many values, so unique values cannot grow it without bound. */
const maxValues = 1 << 16;
/** Values unique to one object: interning them would only fill the table. */
const uniqueMetadata: ReadonlySet<string> = new Set(['name', 'uid', 'resourceVersion']);
const uniqueKeys: ReadonlySet<string> = new Set(['podIP', 'ip', 'providerID']);

/** A table of shared string values. */
export class StringInterner {
  private readonly table = new Map<string, string>();

  /** Keeps values up to `maxLength` characters. */
  constructor(private readonly maxLength = defaultMaxLength) {}

  /** The shared copy of `s`. */
  intern(s: string): string {
    if (s.length > this.maxLength) return s;
    const shared = this.table.get(s);
    if (shared !== undefined) return shared;
    if (this.table.size >= maxValues) this.table.clear();
    this.table.set(s, s);
    return s;
  }

  /** Replaces the string values of a freshly parsed object (nested objects and arrays too) by shared copies. */
  internValues(o: unknown): void {
    this.walk(o, false);
  }

  private walk(o: unknown, isMetadata: boolean): void {
    if (Array.isArray(o)) {
      for (let i = 0; i < o.length; i++) {
        const v: unknown = o[i];
        if (typeof v === 'string') o[i] = this.intern(v);
        else if (v !== null && typeof v === 'object') this.walk(v, false);
      }
      return;
    }
    if (o === null || typeof o !== 'object') return;
    const rec = o as Record<string, unknown>;
    for (const k in rec) {
      const v = rec[k];
      if (typeof v === 'string') {
        if (!(isMetadata && uniqueMetadata.has(k)) && !uniqueKeys.has(k)) rec[k] = this.intern(v);
      } else if (v !== null && typeof v === 'object') this.walk(v, k === 'metadata');
    }
  }
}
