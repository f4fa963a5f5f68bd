/**
 * The objects of a table kept as packed text only, for resources that pile up and are seldom read: Events. A
 * stored Event packs small, but a full Entry beside it (the object, its key and uid strings, selectable fields, an
 * index slot) costs more than the packed bytes, and a large playground holds a few Events per pod. Here each object is its key and one flat string, and an Entry is
 * rebuilt when it is read. Reads cost an inflate and a parse (microseconds); writes cost nothing extra. A rebuilt entry
 * shares the stored text rather than copying it.
 */
import type { JsonPacker } from './packed-json.js';

/** What a table's object map offers: a Map of key → entry, or CompactEntries. */
export interface EntryMap<E> extends Iterable<[string, E]> {
  readonly size: number;
  get(key: string): E | undefined;
  has(key: string): boolean;
  set(key: string, entry: E): unknown;
  delete(key: string): boolean;
  keys(): IterableIterator<string>;
  values(): IterableIterator<E>;
}

/** An entry that can give its packed text. */
export interface PackableEntry {
  packedText(packer: JsonPacker): string;
}

/** Objects kept as packed text; each read rebuilds an entry (a new object every time: compare keys, not entries). */
export class CompactEntries<E extends PackableEntry> implements EntryMap<E> {
  private readonly texts = new Map<string, string>();

  /** `rebuild` makes an entry of an object's packed text. */
  constructor(
    private readonly packer: JsonPacker,
    private readonly rebuild: (text: string) => E,
  ) {}

  /** The number of objects. */
  get size(): number {
    return this.texts.size;
  }

  /** The entry stored under `key`, rebuilt. */
  get(key: string): E | undefined {
    const text = this.texts.get(key);
    return text === undefined ? undefined : this.rebuild(text);
  }

  /** True when an object is stored under `key`. */
  has(key: string): boolean {
    return this.texts.has(key);
  }

  /** Stores an entry's packed text under `key`. */
  set(key: string, entry: E): this {
    this.texts.set(key, entry.packedText(this.packer));
    return this;
  }

  /** Removes the object under `key`; false when there was none. */
  delete(key: string): boolean {
    return this.texts.delete(key);
  }

  /** The keys, in insertion order. */
  keys(): IterableIterator<string> {
    return this.texts.keys();
  }

  /** Every entry, rebuilt one at a time. */
  *values(): IterableIterator<E> {
    for (const text of this.texts.values()) yield this.rebuild(text);
  }

  /** Every key and entry, rebuilt one at a time. */
  *[Symbol.iterator](): IterableIterator<[string, E]> {
    for (const [key, text] of this.texts) yield [key, this.rebuild(text)];
  }
}
