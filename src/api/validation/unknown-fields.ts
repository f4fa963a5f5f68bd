import type { FieldError } from './errors.js';

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Paths of the fields pruning removed (fields the schema does not have), in the order they appear. */
export function prunedFieldPaths(before: unknown, after: unknown, path = ''): string[] {
  if (!isObject(before) || !isObject(after)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(before)) {
    const p = path ? `${path}.${k}` : k;
    const kept = after[k];
    if (!(k in after)) out.push(p);
    else if (isObject(v)) out.push(...prunedFieldPaths(v, kept, p));
    else if (Array.isArray(v) && Array.isArray(kept))
      v.forEach((item, i) => out.push(...prunedFieldPaths(item, kept[i], `${p}[${i}]`)));
  }
  return out;
}

/**
 * An unknown field, as kubectl's default (strict) field validation reports it: the API server refuses the
 * object with `strict decoding error: unknown field "spec.x"` rather than dropping the field silently.
 */
export function unknownField(path: string): FieldError {
  return { type: 'FieldValueInvalid', field: path, detail: 'unknown field', message: `unknown field "${path}"` };
}
