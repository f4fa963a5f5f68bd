/** Writing to the store: assigns resourceVersions and keeps the uid and owner indexes. */
import type { ResourceInfo } from '../resources/resource-types.js';
import type { ServerState } from '../state.js';
import { Entry, parseEntry } from './store.js';
import { notFound, type Subject } from '../status.js';
import type { KObject } from '../types.js';

/** The Status subject of an object of a resource. */
export function subjectOf(info: ResourceInfo, name: string): Subject {
  return { kind: info.kind, group: info.group, name, resource: info.plural };
}

/** The stored JSON bytes of an object returned by a write, when it is exactly what was stored. */
export function storedBytes(state: ServerState, o: KObject): Buffer | undefined {
  return state.committedBytes.get(o);
}

/** Marks an object as identical to a stored entry (an update that changed nothing returns the stored object). */
export function markStored(state: ServerState, o: KObject, e: Entry): void {
  state.committedBytes.set(o, e.json);
}

/** Stores an object as a new version (ADDED or MODIFIED) with a fresh resourceVersion; returns its entry. */
export function commitWrite(state: ServerState, info: ResourceInfo, obj: KObject): Entry {
  const table = state.store.table(info);
  obj.metadata.resourceVersion = String(state.store.nextRv());
  const entry = new Entry(table, obj);
  const previous = table.objects.get(entry.key);
  // Most updates keep the owners: leaving the index alone spares a ReplicaSet's set of 150,000 dependents a
  // delete and an insert per pod status write.
  const reindex = !previous || !sameOwners(previous, entry);
  if (reindex && previous?.owners) unindexOwners(state, previous);
  table.record(previous ? 'MODIFIED' : 'ADDED', entry, previous);
  if (table.indexesUids || entry.owners) state.uids.set(entry.uid, entry);
  if (reindex && entry.owners) for (const o of entry.owners) addDependent(state, o, entry.uid);
  for (const fn of state.onCommit) fn(info, previous ? 'MODIFIED' : 'ADDED', entry);
  state.committedBytes.set(obj, entry.json);
  return entry;
}

/** Puts an object loaded from a saved state back with its own resourceVersion, keeping the uid and owner indexes. */
export function restoreEntry(state: ServerState, info: ResourceInfo, obj: KObject): void {
  const table = state.store.table(info);
  const entry = new Entry(table, obj);
  table.restore(entry, state.store.currentRv());
  if (table.indexesUids || entry.owners) state.uids.set(entry.uid, entry);
  if (entry.owners) for (const o of entry.owners) addDependent(state, o, entry.uid);
}

/** Removes the object under `key` as a replayed write log says it was deleted (no event). */
export function restoreDeletion(state: ServerState, info: ResourceInfo, key: string): void {
  const table = state.store.table(info);
  const previous = table.objects.get(key);
  if (!previous) return;
  if (previous.owners) unindexOwners(state, previous);
  state.uids.delete(previous.uid);
  table.forget(key);
}

/** Removes an object: a DELETED event carrying a fresh resourceVersion. */
export function commitDelete(state: ServerState, info: ResourceInfo, obj: KObject): Entry {
  const table = state.store.table(info);
  obj.metadata.resourceVersion = String(state.store.nextRv());
  const entry = new Entry(table, obj);
  const previous = table.objects.get(entry.key);
  if (previous?.owners) unindexOwners(state, previous);
  table.record('DELETED', entry, previous);
  state.uids.delete(entry.uid);
  for (const fn of state.onCommit) fn(info, 'DELETED', entry);
  return entry;
}

function addDependent(state: ServerState, owner: string, dependent: string): void {
  let set = state.dependents.get(owner);
  if (!set) {
    set = new Set();
    state.dependents.set(owner, set);
  }
  set.add(dependent);
}

/** The same object (uid) with the same owners, in the same order. */
function sameOwners(a: Entry, b: Entry): boolean {
  if (a.uid !== b.uid) return false;
  const x = a.owners ?? [];
  const y = b.owners ?? [];
  return x.length === y.length && x.every((o, i) => o === y[i]);
}

function unindexOwners(state: ServerState, e: Entry): void {
  for (const o of e.owners ?? []) {
    const set = state.dependents.get(o);
    set?.delete(e.uid);
    if (set?.size === 0) state.dependents.delete(o);
  }
}

/** The stored entry, or a 404 NotFound. */
export function mustGet(state: ServerState, info: ResourceInfo, ns: string | undefined, name: string): Entry {
  const e = state.store.table(info).objects.get(ns && info.namespaced ? `${ns}/${name}` : name);
  if (!e) throw notFound(subjectOf(info, name));
  return e;
}

/** The stored object, parsed, or undefined. */
export function findObject(
  state: ServerState,
  info: ResourceInfo,
  ns: string | undefined,
  name: string,
): KObject | undefined {
  const e = state.store.table(info).objects.get(ns && info.namespaced ? `${ns}/${name}` : name);
  return e ? parseEntry(e) : undefined;
}

/** The object with a uid, with its resource, or undefined. */
export function findByUid(state: ServerState, uid: string): { info: ResourceInfo; obj: KObject } | undefined {
  const known = state.uids.get(uid);
  const e = known ? known.table.objects.get(known.key) : undefined;
  return known && e && e.uid === uid ? { info: known.table.info, obj: parseEntry(e) } : undefined;
}
