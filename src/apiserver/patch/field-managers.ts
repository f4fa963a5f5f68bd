/**
 * Field ownership for server-side apply: which manager owns which fields (metadata.managedFields), conflicts
 * when an apply changes a field another manager owns (409, or taken over with force), and removal of fields a
 * manager applied before and no longer applies. Objects no one has applied keep coarse entries (top-level
 * fields only): tracking every field of every pod would grow each stored pod by half. Coarse entries are
 * expanded to the object's current fields when an apply first meets them.
 */
import type { JsonSchemaProps } from '../../api/index.js';
import {
  fieldsOf,
  fromFieldsV1,
  type ListRules,
  isUnder,
  pathText,
  removeAt,
  toFieldsV1,
  valueAt,
} from './field-paths.js';
import { conflictsForgiven, refreshLastApplied } from './last-applied.js';
import { ApiError, type StatusCause } from '../status.js';
import { deepEqual, isJson, type Json, type KObject } from '../types.js';

/** One metadata.managedFields entry with its field set decoded (coarse entries expanded). */
interface Owner {
  entry: Json;
  fields: Set<string>;
  /** Fields were taken from it: it is written back from `fields`; untouched entries are kept as they were. */
  changed: boolean;
  /** It owns whole top-level fields. Such ownership is kept whole: expanded, it would claim server defaults. */
  coarse: boolean;
}

function disown(o: Owner, path: string): void {
  if (!o.coarse && o.fields.delete(path)) o.changed = true;
}

/** Who writes, and how. */
export interface Writer {
  manager: string;
  operation: 'Apply' | 'Update';
  subresource?: string;
  apiVersion: string;
  now: number;
  /** `now` as the timestamp managedFields entries carry. */
  time: string;
  custom: boolean;
  /** A custom resource's schema: its list markers decide how lists are owned. */
  schema?: JsonSchemaProps;
}

function sameManager(e: Json, w: Writer): boolean {
  return e.manager === w.manager && e.operation === w.operation && (e.subresource ?? undefined) === w.subresource;
}

// Coarse entries own whole top-level fields; against a live object they own every field under those.
function expand(fields: Set<string>, live: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const p of fields) {
    // A keyed list item's own marker is fine-grained already.
    const under = p.split('\n').pop()?.startsWith('k:') ? [] : [...live].filter((q) => isUnder(q, p) && q !== p);
    if (under.length === 0) out.add(p);
    else for (const q of under) out.add(q);
  }
  return out;
}

function owners(obj: KObject, live: Set<string>): Owner[] {
  const list = Array.isArray(obj.metadata.managedFields) ? obj.metadata.managedFields.filter(isJson) : [];
  return list.map((entry) => {
    const own = fromFieldsV1(entry.fieldsV1);
    const fields = expand(own, live);
    return { entry, fields, changed: false, coarse: [...own].some((p) => !fields.has(p)) };
  });
}

function entryOf(w: Writer, fields: Set<string>): Json {
  const e: Json = {
    manager: w.manager,
    operation: w.operation,
    apiVersion: w.apiVersion,
    time: w.time,
    fieldsType: 'FieldsV1',
    fieldsV1: toFieldsV1(fields),
  };
  if (w.subresource) e.subresource = w.subresource;
  return e;
}

function text(e: unknown, key: string): string {
  return isJson(e) && typeof e[key] === 'string' ? e[key] : '';
}

/**
 * managedFields in kube-apiserver's order: Apply entries before Update ones, then by time (to the second),
 * manager, apiVersion and subresource.
 */
export function sortedEntries(list: unknown[]): unknown[] {
  const keys = ['operation', 'time', 'manager', 'apiVersion', 'subresource'];
  return [...list].sort((a, b) => {
    for (const k of keys) {
      const [x, y] = [text(a, k), text(b, k)];
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  });
}

function encode(list: Owner[]): Json[] {
  return list
    .filter((o) => !o.changed || o.fields.size > 0)
    .map((o) => (o.changed ? { ...o.entry, fieldsV1: toFieldsV1(o.fields) } : o.entry));
}

/** True when some manager has applied to the object: its writes are then tracked field by field. */
export function hasApplyManager(obj: KObject): boolean {
  return (
    Array.isArray(obj.metadata.managedFields) &&
    obj.metadata.managedFields.some((e) => isJson(e) && e.operation === 'Apply')
  );
}

function managerText(e: Json): string {
  let text = JSON.stringify(e.manager);
  if (typeof e.subresource === 'string' && e.subresource) text += ` with subresource ${JSON.stringify(e.subresource)}`;
  return e.operation === 'Update' ? `${text} using ${String(e.apiVersion)}` : text;
}

function conflictError(conflicts: Array<{ owner: Json; path: string }>): ApiError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${managerText(c.owner)}`,
    field: pathText(c.path),
  }));
  const first = conflicts[0];
  if (conflicts.length === 1 && first)
    return new ApiError(
      409,
      'Conflict',
      `Apply failed with 1 conflict: conflict with ${managerText(first.owner)}: ${pathText(first.path)}`,
      { causes },
    );
  const byManager = new Map<string, string[]>();
  for (const c of conflicts)
    byManager.set(managerText(c.owner), [...(byManager.get(managerText(c.owner)) ?? []), pathText(c.path)]);
  const lines = [...byManager.keys()]
    .sort()
    .flatMap((m) => [`conflicts with ${m}:`, ...(byManager.get(m) ?? []).map((p) => `- ${p}`)]);
  return new ApiError(409, 'Conflict', `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`, {
    causes,
  });
}

/** What an apply stores: `merged` (the configuration merged over the live object) after removals, with managedFields. */
export function applyOwnership(args: {
  live: KObject;
  config: KObject;
  merged: KObject;
  writer: Writer;
  force: boolean;
}): KObject {
  const { live, config, merged, writer, force } = args;
  const withStatus = writer.subresource === 'status';
  const liveFields = fieldsOf(live, { custom: writer.custom, schema: writer.schema, withStatus });
  const applied = fieldsOf(config, { custom: writer.custom, schema: writer.schema, withStatus });
  const all = owners(live, liveFields);
  const mine = all.find((o) => sameManager(o.entry, writer));
  const others = all.filter((o) => o !== mine);
  const conflicts: Array<{ owner: Json; path: string }> = [];
  for (const p of applied) {
    if (p.split('\n').pop()?.startsWith('k:') || deepEqual(valueAt(config, p), valueAt(live, p))) continue;
    for (const o of others) if (o.fields.has(p)) conflicts.push({ owner: o.entry, path: p });
  }
  const forgiven = conflictsForgiven(live, writer.manager, writer);
  const unforgiven = conflicts.filter((c) => !forgiven.has(c.path));
  if (unforgiven.length > 0 && !force) throw conflictError(unforgiven);
  for (const c of conflicts) for (const o of others) if (o.entry === c.owner) disown(o, c.path);
  // Fields this manager applied before and not now go, unless someone else owns them (or what lies under them).
  const dropped = [...(mine ? fromFieldsV1(mine.entry.fieldsV1) : [])].filter(
    (p) => ![...applied].some((q) => isUnder(q, p)),
  );
  const outermost = dropped.filter((p) => !dropped.some((q) => q !== p && isUnder(p, q)));
  for (const p of outermost)
    if (!others.some((o) => [...o.fields].some((q) => isUnder(q, p) || isUnder(p, q)))) removeAt(merged, p);
  refreshLastApplied(live, merged, config, writer.manager);
  merged.metadata.managedFields = sortedEntries([...encode(others), entryOf(writer, applied)]);
  return merged;
}

function changedFields(
  old: KObject,
  next: KObject,
  opts: ListRules & { withStatus: boolean },
): { changed: Set<string>; removed: Set<string> } {
  const nextFields = fieldsOf(next, opts);
  const oldFields = fieldsOf(old, opts);
  const changed = new Set(
    [...nextFields].filter((p) => !oldFields.has(p) || !deepEqual(valueAt(old, p), valueAt(next, p))),
  );
  const removed = new Set([...oldFields].filter((p) => !nextFields.has(p)));
  return { changed, removed };
}

// Top-level fields, plus each annotation: kubectl finds the client-side-apply manager to migrate to
// server-side apply by its ownership of the last-applied-configuration annotation. (Labels stay out: every
// pod has some, and each byte here is stored and listed 150k times.)
function coarseFields(obj: KObject, opts: ListRules & { withStatus: boolean }): Set<string> {
  const { annotations } = obj.metadata;
  const out = opts.withStatus
    ? new Set<string>()
    : fieldsOf({ metadata: { annotations } }, { ...opts, withStatus: false });
  for (const k of Object.keys(obj))
    if (k !== 'apiVersion' && k !== 'kind' && k !== 'metadata' && (k === 'status') === opts.withStatus)
      out.add(`f:${k}`);
  return out;
}

/**
 * managedFields after a non-apply write: the writer now owns the fields it changed, which others lose. Without
 * any apply manager on the object, entries stay coarse (the writer's top-level fields).
 */
export function updateOwnership(args: { old: KObject | undefined; next: KObject; writer: Writer }): unknown[] {
  const { old, next, writer } = args;
  const withStatus = writer.subresource === 'status';
  if (!old || !hasApplyManager(next)) {
    const coarse = coarseFields(next, { custom: writer.custom, withStatus });
    const kept = (next.metadata.managedFields ?? []).filter((e) => !(isJson(e) && sameManager(e, writer)));
    return sortedEntries([...kept, entryOf(writer, coarse)]);
  }
  const rules = { custom: writer.custom, schema: writer.schema, withStatus };
  const { changed, removed } = changedFields(old, next, rules);
  const all = owners(next, fieldsOf(old, rules));
  const mine = all.find((o) => sameManager(o.entry, writer));
  for (const o of all) for (const p of [...o.fields]) if (changed.has(p) || removed.has(p)) disown(o, p);
  // The writer's entry keeps its own shape: a coarse `f:spec` stays coarse and covers changes under it.
  const own = new Set([...(mine ? fromFieldsV1(mine.entry.fieldsV1) : [])].filter((p) => !removed.has(p)));
  for (const p of changed) if (![...own].some((q) => isUnder(p, q))) own.add(p);
  return sortedEntries([...encode(all.filter((o) => o !== mine)), entryOf(writer, own)]);
}

/** managedFields of an object created by an apply: the applier owns what it applied. */
export function createdByApply(config: KObject, writer: Writer): unknown[] {
  return [
    entryOf(
      writer,
      fieldsOf(config, { custom: writer.custom, schema: writer.schema, withStatus: writer.subresource === 'status' }),
    ),
  ];
}
