import type { TSchema } from '@sinclair/typebox';
import type { JsonSchemaProps } from '../schema/json-schema-props.js';

/**
 * Turns a TypeBox schema into the plain OpenAPI object a CRD carries: TypeBox's symbols dropped, object keys
 * sorted and `required` lists sorted as controller-gen writes them, so a diff against upstream shows content only.
 */
export function toOpenApi(schema: TSchema | JsonSchemaProps): JsonSchemaProps {
  return sortKeys(JSON.parse(JSON.stringify(schema)) as unknown) as JsonSchemaProps;
}

function sortKeys(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => sortKeys(v));
    return key === 'required' ? [...(items as string[])].sort() : items;
  }
  if (value === null || typeof value !== 'object') return value;
  // Defaults and enums are data, not schema: keep their keys as written.
  if (key === 'default' || key === 'enum') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k], k);
  return out;
}
