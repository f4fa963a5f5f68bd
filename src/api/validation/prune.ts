import type { JsonSchemaProps } from '../schema/json-schema-props.js';
import { isObject } from './path.js';

const embeddedKeys = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Drops fields the schema does not know, as kube-apiserver prunes custom resources: objects keep only their
 * `properties` (or every key when `additionalProperties` or `x-kubernetes-preserve-unknown-fields` says so), and
 * embedded resources keep apiVersion/kind/metadata. Mutates `value` in place (callers pass a copy).
 */
export function prune(value: unknown, schema: JsonSchemaProps, opts: { root?: boolean } = {}): void {
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) prune(item, schema.items);
    return;
  }
  if (!isObject(value)) return;
  const keepMeta = opts.root === true || schema['x-kubernetes-embedded-resource'] === true;
  for (const key of Object.keys(value)) {
    // ObjectMeta is validated by the server's own rules, not by the CRD schema: keep it whole.
    if (keepMeta && key === 'metadata') continue;
    const sub = subSchema(schema, key);
    if (sub) prune(value[key], sub);
    else if (!keepsUnknown(schema, keepMeta && embeddedKeys.has(key))) delete value[key];
  }
}

function subSchema(schema: JsonSchemaProps, key: string): JsonSchemaProps | undefined {
  const additional = schema.additionalProperties;
  return schema.properties?.[key] ?? (typeof additional === 'object' ? additional : undefined);
}

function keepsUnknown(schema: JsonSchemaProps, embeddedKey: boolean): boolean {
  return embeddedKey || schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties === true;
}
