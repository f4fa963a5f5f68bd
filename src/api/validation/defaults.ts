import type { JsonSchemaProps } from '../schema/json-schema-props.js';
import { isObject } from './path.js';

/**
 * Applies `default`s the way kube-apiserver does for custom resources: top-down, so a defaulted object gets its
 * nested defaults too; a `null` in a non-nullable field is replaced by its default, or dropped when it has none.
 * Mutates `value` in place (callers pass a copy).
 */
export function applyDefaults(value: unknown, schema: JsonSchemaProps): void {
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) applyDefaults(item, schema.items);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, propSchema] of Object.entries(schema.properties ?? {})) {
    defaultProperty(value, key, propSchema);
  }
  const additional = schema.additionalProperties;
  if (typeof additional === 'object') {
    for (const key of Object.keys(value)) {
      if (schema.properties?.[key]) continue;
      defaultProperty(value, key, additional);
    }
  }
}

function defaultProperty(obj: Record<string, unknown>, key: string, schema: JsonSchemaProps): void {
  const present = Object.prototype.hasOwnProperty.call(obj, key);
  const current = obj[key];
  if (present && current === null && schema.nullable !== true) {
    if (schema.default === undefined) {
      delete obj[key];
      return;
    }
    obj[key] = structuredClone(schema.default);
  } else if (!present && schema.default !== undefined) {
    obj[key] = structuredClone(schema.default);
  }
  if (Object.prototype.hasOwnProperty.call(obj, key)) applyDefaults(obj[key], schema);
}
