import type { JsonSchemaProps } from '../schema/json-schema-props.js';
import { isObject } from './path.js';

/** The JSON type name of a value, as kube-openapi reports it ("integer" for whole numbers). */
export function jsonTypeOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

/** True when `v` has the schema's type (int-or-string and untyped schemas accept what they allow). */
export function hasSchemaType(v: unknown, schema: JsonSchemaProps): boolean {
  if (schema['x-kubernetes-int-or-string'] === true)
    return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
  switch (schema.type) {
    case undefined:
      return true;
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return true;
  }
}

/** Deep equality of JSON values (for enum membership and list duplicates). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}
