/**
 * The object store. Each object is kept as its UTF-8 JSON bytes, packed (see packed-json.ts), plus the few fields
 * queries need (labels, selectable fields, owners): lists, gets and watch fan-out copy stored bytes to the socket
 * instead of re-serialising or re-encoding, and memory stays well under the JSON size (the 150k-pod goal).
 * Entries are immutable; every write stores a new one.
 */
import {
  kindField,
  readField,
  selectableFields,
  SharedFieldValues,
  type FieldSource,
} from '../selectors/field-selectors.js';
import { CompactEntries, type EntryMap } from './compact-entries.js';
import { HotEntries, JsonPacker, PackedJson } from './packed-json.js';
import { SortedKeys } from './sorted-keys.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import type { KObject } from '../types.js';

/** A change of one object, kept for watches. */
export interface StoredEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly rv: number;
  readonly entry: Entry;
  /** The version before a MODIFIED or DELETED change (for selector transitions in watches). */
  readonly prev: Entry | undefined;
}

/** The storage key of an object: `namespace/name` or `name`. */
export function objectKey(namespace: string | undefined, name: string): string {
  // join makes a flat string; a template literal makes a cons string, which costs twice the memory as a map key.
  return namespace ? [namespace, name].join('/') : name;
}

/** Parses an entry's object (a fresh copy the caller may change). */
export function parseEntry(e: Entry): KObject {
  return JSON.parse(e.json.toString('utf8')) as KObject;
}

/** What the tables of one store share. */
export interface TableShares {
  hot: HotEntries;
  fieldValues: SharedFieldValues;
}

/** The objects and recent history of one resource. */
export class ResourceTable {
  /** The latest entry of every object by key. Events are kept packed only (see compact-entries.ts). */
  readonly objects: EntryMap<Entry>;
  /**
   * False for Events: the store's uid index would hold every Event's entry, and nothing finds an Event by uid
   * (it is nobody's owner). An Event with owners is indexed all the same, so garbage collection finds it.
   */
  readonly indexesUids: boolean;
  private readonly history: StoredEvent[] = [];
  private historyStart = 0;
  /** Events at or below this resourceVersion are no longer in history. */
  compactedRv = 0;
  private readonly watchers = new Set<(e: StoredEvent) => void>();
  private readonly sortedKeys = new SortedKeys(() => this.objects.keys());
  /** Packs the JSON of this resource's objects. */
  readonly packer: JsonPacker;
  /** Owner lists of this resource's objects, kept once: a ReplicaSet's 150,000 pods list the same owner. */
  private readonly ownerLists = new Map<string, readonly string[]>();
  private readonly sharedLabels = new Map<string, Record<string, string>>();

  /** Builds a table keeping at most `historyLimit` events for watches; `uids` is the store's uid index. */
  constructor(
    readonly info: ResourceInfo,
    private readonly historyLimit: number,
    private readonly uids: ReadonlyMap<string, Entry> = new Map(),
    readonly shared: TableShares = { hot: new HotEntries(), fieldValues: new SharedFieldValues() },
  ) {
    this.packer = new JsonPacker(shared.hot);
    const compact = info.kind === 'Event';
    this.indexesUids = !compact;
    this.objects = compact
      ? new CompactEntries(this.packer, (text) => Entry.fromText(this, text))
      : new Map<string, Entry>();
  }

  /**
   * The uid string a stored object already holds, when one is stored under `uid`: each write parses its own copy
   * of an owner's or an involved object's uid, and 36 characters per pod and per Event add up.
   */
  canonicalUid(uid: string): string {
    return this.uids.get(uid)?.uid ?? uid;
  }

  /** The shared owner list with these uids (undefined when there are none). */
  ownerList(uids: readonly string[] | undefined): readonly string[] | undefined {
    if (!uids || uids.length === 0) return undefined;
    const canonical = uids.map((u) => this.canonicalUid(u));
    const key = canonical.length === 1 ? (canonical[0] ?? '') : canonical.join(',');
    const known = this.ownerLists.get(key);
    if (known && known.length === canonical.length && known.every((u, i) => u === canonical[i])) return known;
    // Bounded: owners come and go (each ReplicaSet of a rollout), and a table is not a cache of all of them.
    if (this.ownerLists.size >= 4096) this.ownerLists.clear();
    this.ownerLists.set(key, canonical);
    return canonical;
  }

  /**
   * The shared labels object equal to `labels`, for objects with owners: a ReplicaSet's pods carry the same labels,
   * and each entry had its own copy. Objects without owners (a node's labels name the node) are not looked up.
   */
  labelsOnce(labels: Record<string, string> | undefined, owned: boolean): Record<string, string> | undefined {
    if (!labels || !owned) return labels;
    const key = JSON.stringify(labels);
    const known = this.sharedLabels.get(key);
    if (known) return known;
    if (this.sharedLabels.size >= 4096) this.sharedLabels.clear();
    this.sharedLabels.set(key, labels);
    return labels;
  }

  /** Records a change: stores the entry (or removes it) and tells every watcher; `prev` when the caller read it. */
  record(type: StoredEvent['type'], entry: Entry, prev: Entry | undefined = this.objects.get(entry.key)): void {
    const had = prev !== undefined;
    if (type === 'DELETED') this.objects.delete(entry.key);
    else this.objects.set(entry.key, entry);
    const has = this.objects.has(entry.key);
    if (!had && has) this.sortedKeys.add(entry.key);
    else if (had && !has) this.sortedKeys.remove(entry.key);
    const ev: StoredEvent = { type, rv: entry.rv, entry, prev };
    this.history.push(ev);
    if (this.history.length - this.historyStart > this.historyLimit) {
      const dropped = this.history[this.historyStart];
      this.historyStart++;
      if (dropped) this.compactedRv = dropped.rv;
      // Trim the array now and then rather than shifting on every event.
      if (this.historyStart > 4096) {
        this.history.splice(0, this.historyStart);
        this.historyStart = 0;
      }
    }
    for (const w of this.watchers) w(ev);
  }

  /** Events after `rv`, oldest first; undefined when `rv` is older than the kept window. */
  eventsSince(rv: number): StoredEvent[] | undefined {
    if (rv < this.compactedRv) return undefined;
    const out: StoredEvent[] = [];
    for (let i = this.historyStart; i < this.history.length; i++) {
      const ev = this.history[i];
      if (ev && ev.rv > rv) out.push(ev);
    }
    return out;
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  watch(fn: (e: StoredEvent) => void): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  /**
   * Puts an entry loaded from a saved state in place: no event, no watchers told. The history starts at the
   * saved resourceVersion, so a watch from an earlier one gets 410 Gone and its client lists again.
   */
  restore(entry: Entry, savedRv: number): void {
    this.objects.set(entry.key, entry);
    this.sortedKeys.reset();
    this.compactedRv = Math.max(this.compactedRv, savedRv);
  }

  /** Removes an object as a replayed log says it was deleted: no event, no watchers told. */
  forget(key: string): void {
    if (this.objects.delete(key)) this.sortedKeys.reset();
  }

  /** The number of open watches. */
  watcherCount(): number {
    return this.watchers.size;
  }

  /** Keys in storage order (namespace/name), which list pagination follows. */
  keys(): readonly string[] {
    return this.sortedKeys.keys();
  }
}

/** Every resource's table and the cluster-wide resourceVersion counter. */
export class Store {
  private rv = 1;
  /** The resourceVersion of a loaded saved state: tables made later start their watch history there too. */
  private restoredRv = 0;
  private readonly tables = new Map<string, ResourceTable>();
  /** uid → the object's latest entry, which names its table (owner lookups for garbage collection). */
  readonly uids = new Map<string, Entry>();
  /** What the store's tables share: the ring of entries kept unpacked, and selectable values kept once. */
  private readonly shares: TableShares = { hot: new HotEntries(), fieldValues: new SharedFieldValues() };

  /** Builds an empty store keeping `historyLimit` watch events per resource. */
  constructor(private readonly historyLimit = 10_000) {}

  /** The latest resourceVersion handed out. */
  currentRv(): number {
    return this.rv;
  }

  /** The next resourceVersion (strictly increasing across all resources, like etcd's revision). */
  nextRv(): number {
    return ++this.rv;
  }

  /** Restores the counter (loading a saved state); watches from before it get 410 Gone. */
  setRv(rv: number): void {
    this.rv = Math.max(this.rv, rv);
    this.restoredRv = Math.max(this.restoredRv, rv);
    for (const t of this.tables.values()) t.compactedRv = Math.max(t.compactedRv, rv);
  }

  /** The table of a resource, created on first use. */
  table(info: ResourceInfo): ResourceTable {
    const key = `${info.group}/${info.version}/${info.plural}`;
    let t = this.tables.get(key);
    if (!t) {
      t = new ResourceTable(info, this.historyLimit, this.uids, this.shares);
      t.compactedRv = this.restoredRv;
      this.tables.set(key, t);
    }
    return t;
  }

  /** Every table that exists. */
  allTables(): ResourceTable[] {
    return [...this.tables.values()];
  }

  /** Drops a resource's table (its CRD was deleted). */
  dropTable(info: ResourceInfo): void {
    this.tables.delete(`${info.group}/${info.version}/${info.plural}`);
  }
}

/** One stored object version (immutable: every write stores a new one), with its packed JSON. */
export class Entry extends PackedJson implements FieldSource {
  /** The table of the object's resource. */
  readonly table: ResourceTable;
  /** `namespace/name`, or `name` for a cluster-scoped object. */
  readonly key: string;
  readonly rv: number;
  readonly uid: string;
  readonly labels: Record<string, string> | undefined;
  readonly owners: readonly string[] | undefined;
  /** The kind's own selectable fields (metadata.name and metadata.namespace come from the key). */
  private readonly kindFields: Record<string, string> | undefined;

  /**
   * Stores an object of `table` whose metadata.resourceVersion is already set. With `stored` (its JSON and the
   * packed text it was read from) the entry is one read back from a compact table and is not packed again.
   */
  constructor(table: ResourceTable, obj: KObject, stored?: { json: Buffer; text: string }) {
    super(table.packer, stored?.json ?? Buffer.from(JSON.stringify(obj), 'utf8'), stored?.text);
    this.table = table;
    this.key = objectKey(obj.metadata.namespace, obj.metadata.name ?? '');
    this.rv = Number(obj.metadata.resourceVersion);
    this.uid = table.canonicalUid(obj.metadata.uid ?? '');
    this.kindFields = selectableFields(
      table.info.kind,
      obj,
      (uid) => table.canonicalUid(uid),
      table.shared.fieldValues,
    );
    this.owners = table.ownerList(obj.metadata.ownerReferences?.map((o) => o.uid));
    this.labels = table.labelsOnce(obj.metadata.labels, this.owners !== undefined);
  }

  /** The entry of a packed text (read back from a compact table). */
  static fromText(table: ResourceTable, text: string): Entry {
    const json = table.packer.unpackText(text);
    return new Entry(table, JSON.parse(json.toString('utf8')) as KObject, { json, text });
  }

  /** The object's JSON as UTF-8 bytes (never mutated; unpacked on each read but for the latest entries). */
  get json(): Buffer {
    return this.bytes();
  }

  /** The object's namespace ('' when cluster-scoped). Names and namespaces cannot hold '/'. */
  get namespace(): string {
    const i = this.key.indexOf('/');
    return i < 0 ? '' : this.key.slice(0, i);
  }

  /** The object's name. */
  get name(): string {
    return this.key.slice(this.key.indexOf('/') + 1);
  }

  /** True when the object is in `namespace` ('' for a cluster-scoped object), without building the namespace string. */
  inNamespace(namespace: string): boolean {
    if (namespace === '') return !this.key.includes('/');
    return (
      this.key.length > namespace.length &&
      this.key.charCodeAt(namespace.length) === 47 &&
      this.key.startsWith(namespace)
    );
  }

  /** The value of a selectable field ('' when the object has none). */
  field(name: string): string {
    if (name === 'metadata.name') return this.name;
    if (name === 'metadata.namespace') return this.namespace;
    const kind = this.table.info.kind;
    // Watch fan-out matches every change against each watcher's selector: the kept fields answer without a parse.
    return kindField(kind, this.kindFields, name) ?? readField(kind, parseEntry(this), name);
  }
}
