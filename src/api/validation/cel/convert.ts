import type { CelInput } from '@bufbuild/cel';
import type { JsonSchemaProps } from '../../schema/json-schema-props.js';
import { isObject } from '../path.js';

/**
 * Converts a JSON value to the CEL value Kubernetes would bind for it: objects become maps, integers (by schema,
 * or whole numbers where the schema does not say) become CEL ints, `number` stays double.
 */
export function toCel(value: unknown, schema: JsonSchemaProps | undefined): CelInput {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => toCel(item, schema?.items));
  if (isObject(value)) {
    const out = new Map<string, CelInput>();
    const additional = schema?.additionalProperties;
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const sub = schema?.properties?.[k] ?? (typeof additional === 'object' ? additional : undefined);
      out.set(k, toCel(v, sub));
    }
    return out;
  }
  if (typeof value === 'number') return numberToCel(value, schema);
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  return null;
}

function numberToCel(value: number, schema: JsonSchemaProps | undefined): CelInput {
  if (schema?.type === 'number') return value;
  return Number.isSafeInteger(value) ? BigInt(value) : value;
}
