/**
 * How server-side apply treats the lists of custom resources: by their schema's `x-kubernetes-list-type`.
 * `map` lists merge item by item on `x-kubernetes-list-map-keys`, `set` lists merge by value, and lists
 * without a marker (or `atomic`) are replaced and owned whole, as kube-apiserver does
 * (https://kubernetes.io/docs/reference/using-api/server-side-apply/#merge-strategy).
 */
import type { JsonSchemaProps } from '../../api/index.js';
import { deepEqual, isJson, type Json } from '../types.js';

/** How a list merges: by key fields, by value, or whole. */
export type ListKind = { keys: readonly string[] } | 'set' | 'atomic';

/** The schema of field `name` of an object schema (a declared property, else the additionalProperties schema). */
export function fieldSchema(schema: JsonSchemaProps | undefined, name: string): JsonSchemaProps | undefined {
  const own = schema?.properties?.[name];
  if (own) return own;
  return isJson(schema?.additionalProperties) ? (schema.additionalProperties as JsonSchemaProps) : undefined;
}

/** The list kind a custom resource's list schema declares. */
export function customListKind(schema: JsonSchemaProps | undefined): ListKind {
  const type = schema?.['x-kubernetes-list-type'];
  const keys = schema?.['x-kubernetes-list-map-keys'] ?? [];
  if (type === 'map' && keys.length > 0) return { keys };
  return type === 'set' ? 'set' : 'atomic';
}

/** True when two items of a map list have the same key. */
export function sameKey(a: unknown, b: unknown, keys: readonly string[]): boolean {
  return isJson(a) && isJson(b) && keys.every((k) => deepEqual(a[k], b[k]));
}

function mergeList(live: unknown, config: unknown[], schema: JsonSchemaProps | undefined): unknown[] {
  const kind = customListKind(schema);
  if (kind === 'atomic' || !Array.isArray(live)) return config;
  if (kind === 'set') return [...live, ...config.filter((c) => !live.some((l) => deepEqual(l, c)))];
  const out = [...live];
  for (const item of config) {
    const i = out.findIndex((l) => sameKey(l, item, kind.keys));
    if (i >= 0) out[i] = applyMerge(out[i], item, schema?.items);
    else out.push(item);
  }
  return out;
}

/**
 * An apply configuration merged over a live custom resource: objects field by field (null removes), map and
 * set lists item by item, other lists replaced. Items the manager no longer applies are removed afterwards,
 * by field ownership.
 */
export function applyMerge(live: unknown, config: unknown, schema: JsonSchemaProps | undefined): unknown {
  if (Array.isArray(config)) return mergeList(live, config, schema);
  if (!isJson(config) || schema?.['x-kubernetes-map-type'] === 'atomic') return config;
  const out: Json = isJson(live) ? { ...live } : {};
  for (const [k, v] of Object.entries(config)) {
    if (v === null) delete out[k];
    else out[k] = applyMerge(out[k], v, fieldSchema(schema, k));
  }
  return out;
}
