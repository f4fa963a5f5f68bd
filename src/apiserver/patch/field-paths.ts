/**
 * Field paths and sets as server-side apply tracks them (structured-merge-diff's FieldsV1): `f:name` for a
 * field, `k:{"name":"app"}` for an item of a list merged by key, `v:"x"` for an item of a set. A path is its
 * elements joined by newlines; a set of paths is a Set. Lists without a known key are atomic: owned whole.
 * Built-in kinds' lists are known by field name; custom resources' by their schema (list-types.ts).
 */
import type { JsonSchemaProps } from '../../api/index.js';
import { customListKind, fieldSchema, type ListKind } from './list-types.js';
import { deepEqual, isJson, type Json } from '../types.js';

const sep = '\n';

// Built-in lists merged by key (k8s.io/api's patchMergeKey / listMapKeys), by field name.
const keyedLists: Readonly<Record<string, readonly string[]>> = {
  containers: ['name'],
  initContainers: ['name'],
  ephemeralContainers: ['name'],
  env: ['name'],
  volumes: ['name'],
  volumeMounts: ['mountPath'],
  imagePullSecrets: ['name'],
  conditions: ['type'],
  ownerReferences: ['uid'],
};

// Built-in lists of scalars that are sets.
const scalarSets: ReadonlySet<string> = new Set(['finalizers']);

/** Which lists merge how: a custom resource's schema, or the built-in rules by field name. */
export interface ListRules {
  custom: boolean;
  /** The custom resource's schema; its list markers decide. */
  schema?: JsonSchemaProps;
}

function builtinListKind(field: string, items: unknown[]): ListKind {
  if (scalarSets.has(field)) return 'set';
  if (field === 'ports')
    return { keys: items.every((i) => isJson(i) && 'containerPort' in i) ? ['containerPort'] : ['port'] };
  const keys = keyedLists[field];
  return keys ? { keys } : 'atomic';
}

function keyElement(keys: readonly string[], item: Json): string {
  const k: Json = {};
  for (const name of keys) k[name] = item[name];
  return `k:${JSON.stringify(k)}`;
}

interface Walk {
  custom: boolean;
  out: Set<string>;
}

function walkList(w: Walk, field: string, list: unknown[], at: { prefix: string; schema?: JsonSchemaProps }): void {
  const { prefix, schema } = at;
  const kind = w.custom ? customListKind(schema) : builtinListKind(field, list);
  if (kind !== 'atomic' && kind !== 'set' && list.every(isJson)) {
    for (const item of list as Json[]) {
      const p = `${prefix}${sep}${keyElement(kind.keys, item)}`;
      w.out.add(p);
      walkObject(w, item, p, schema?.items);
    }
  } else if (kind === 'set') {
    for (const v of list) w.out.add(`${prefix}${sep}v:${JSON.stringify(v)}`);
  } else w.out.add(prefix);
}

function walkObject(w: Walk, obj: Json, prefix: string, schema?: JsonSchemaProps): void {
  const entries = Object.entries(obj).filter(([, v]) => v !== undefined);
  // An atomic map (x-kubernetes-map-type: atomic) is owned whole, like an atomic list.
  if ((entries.length === 0 || (w.custom && schema?.['x-kubernetes-map-type'] === 'atomic')) && prefix) {
    w.out.add(prefix);
    return;
  }
  for (const [k, v] of entries) {
    const p = prefix ? `${prefix}${sep}f:${k}` : `f:${k}`;
    const sub = w.custom ? fieldSchema(schema, k) : undefined;
    if (Array.isArray(v)) walkList(w, k, v, { prefix: p, schema: sub });
    else if (isJson(v)) walkObject(w, v, p, sub);
    else w.out.add(p);
  }
}

const trackedMetadata = ['labels', 'annotations', 'finalizers', 'ownerReferences'];

/** The fields an object (or an apply configuration) sets; status only when `withStatus`. */
export function fieldsOf(obj: Json, opts: ListRules & { withStatus: boolean }): Set<string> {
  const w: Walk = { custom: opts.custom, out: new Set() };
  const meta = isJson(obj.metadata) ? obj.metadata : {};
  const tracked: Json = {};
  for (const k of trackedMetadata) if (meta[k] !== undefined) tracked[k] = meta[k];
  // metadata is ObjectMeta for every kind: its lists follow the built-in rules (finalizers a set, owners by uid).
  if (Object.keys(tracked).length > 0) walkObject({ custom: false, out: w.out }, tracked, 'f:metadata');
  const root: JsonSchemaProps | undefined = opts.custom ? (opts.schema ?? {}) : undefined;
  for (const [k, v] of Object.entries(obj)) {
    if (
      k === 'apiVersion' ||
      k === 'kind' ||
      k === 'metadata' ||
      v === undefined ||
      (k === 'status') !== opts.withStatus
    )
      continue;
    walkObject(w, { [k]: v }, '', root);
  }
  return w.out;
}

/** A field set as the FieldsV1 tree of managedFields (`.` marks a keyed item owned itself). */
export function toFieldsV1(set: Set<string>): Json {
  const root: Json = {};
  for (const path of [...set].sort()) {
    let node = root;
    for (const el of path.split(sep)) {
      const next = isJson(node[el]) ? (node[el] as Json) : {};
      node[el] = next;
      node = next;
    }
    if (path.split(sep).pop()?.startsWith('k:')) node['.'] = {};
  }
  return root;
}

/** The field set of a FieldsV1 tree: every leaf, and every node marked `.`. */
export function fromFieldsV1(tree: unknown, prefix = ''): Set<string> {
  const out = new Set<string>();
  if (!isJson(tree)) return out;
  for (const [el, sub] of Object.entries(tree)) {
    if (el === '.') {
      if (prefix) out.add(prefix);
      continue;
    }
    const p = prefix ? `${prefix}${sep}${el}` : el;
    if (!isJson(sub) || Object.keys(sub).length === 0) out.add(p);
    else for (const q of fromFieldsV1(sub, p)) out.add(q);
  }
  return out;
}

function itemMatches(item: unknown, el: string): boolean {
  if (el.startsWith('v:')) return deepEqual(item, JSON.parse(el.slice(2)));
  if (!isJson(item)) return false;
  const keys = JSON.parse(el.slice(2)) as Json;
  return Object.entries(keys).every(([k, v]) => deepEqual(item[k], v));
}

function step(node: unknown, el: string): unknown {
  if (el.startsWith('f:')) return isJson(node) ? node[el.slice(2)] : undefined;
  return Array.isArray(node) ? node.find((i) => itemMatches(i, el)) : undefined;
}

/** The value at a path, or undefined. */
export function valueAt(obj: unknown, path: string): unknown {
  let node = obj;
  for (const el of path.split(sep)) node = step(node, el);
  return node;
}

/** Removes the value at a path (a field, a keyed item or a set item); no-op when absent. */
export function removeAt(obj: Json, path: string): void {
  const els = path.split(sep);
  const last = els.pop() ?? '';
  const parent = els.length > 0 ? valueAt(obj, els.join(sep)) : obj;
  if (last.startsWith('f:') && isJson(parent)) {
    delete parent[last.slice(2)];
    return;
  }
  if (!Array.isArray(parent) || els.length === 0) return;
  const holder = valueAt(obj, els.slice(0, -1).join(sep)) ?? obj;
  const field = (els[els.length - 1] ?? '').slice(2);
  if (isJson(holder)) holder[field] = parent.filter((i) => !itemMatches(i, last));
}

/** A path as kube-apiserver prints it in conflicts: `.spec.template.spec.containers[name="app"].image`. */
export function pathText(path: string): string {
  return path
    .split(sep)
    .map((el) => {
      if (el.startsWith('f:')) return `.${el.slice(2)}`;
      if (el.startsWith('v:')) return `[=${el.slice(2)}]`;
      const keys = JSON.parse(el.slice(2)) as Json;
      return `[${Object.entries(keys)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(',')}]`;
    })
    .join('');
}

/** True when `path` is `other` or lies under it. */
export function isUnder(path: string, other: string): boolean {
  return path === other || path.startsWith(`${other}${sep}`);
}
