import type { JsonSchemaProps } from '../schema/json-schema-props.js';
import { duplicate, invalid, tooLong, tooMany, type FieldError } from './errors.js';
import { jsonEqual } from './json-type.js';
import { inBody, index, isObject } from './path.js';

const regexCache = new Map<string, RegExp | null>();

/** Compiles an OpenAPI pattern once; null when JavaScript cannot compile it (the check is then skipped). */
export function compilePattern(pattern: string): RegExp | null {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      try {
        re = new RegExp(pattern);
      } catch {
        re = null;
      }
    }
    regexCache.set(pattern, re);
  }
  return re;
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const formats: Record<string, (s: string) => boolean> = {
  'date-time': (s) => rfc3339.test(s) && !Number.isNaN(Date.parse(s.replace(' ', 'T'))),
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)),
  uuid: (s) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s),
  byte: (s) => /^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0,
};

/** String keywords: maxLength, minLength, pattern, format. */
export function checkString(v: string, schema: JsonSchemaProps, path: string, errs: FieldError[]): void {
  const length = [...v].length;
  if (schema.maxLength !== undefined && length > schema.maxLength) errs.push(tooLong(path, schema.maxLength));
  if (schema.minLength !== undefined && length < schema.minLength) {
    errs.push(invalid(path, v, `${inBody(path)} in body should be at least ${schema.minLength} chars long`));
  }
  if (schema.pattern !== undefined) {
    const re = compilePattern(schema.pattern);
    if (re && !re.test(v)) errs.push(invalid(path, v, `${inBody(path)} in body should match '${schema.pattern}'`));
  }
  const check = schema.format ? formats[schema.format] : undefined;
  if (check && !check(v))
    errs.push(invalid(path, v, `${inBody(path)} in body must be of type ${schema.format ?? ''}: ${JSON.stringify(v)}`));
}

/** Number keywords: minimum, maximum (exclusive or not), multipleOf. */
export function checkNumber(v: number, schema: JsonSchemaProps, path: string, errs: FieldError[]): void {
  const where = `${inBody(path)} in body`;
  if (schema.minimum !== undefined) {
    const bad = schema.exclusiveMinimum === true ? v <= schema.minimum : v < schema.minimum;
    const op = schema.exclusiveMinimum === true ? 'greater than' : 'greater than or equal to';
    if (bad) errs.push(invalid(path, v, `${where} should be ${op} ${schema.minimum}`));
  }
  if (schema.maximum !== undefined) {
    const bad = schema.exclusiveMaximum === true ? v >= schema.maximum : v > schema.maximum;
    const op = schema.exclusiveMaximum === true ? 'less than' : 'less than or equal to';
    if (bad) errs.push(invalid(path, v, `${where} should be ${op} ${schema.maximum}`));
  }
  if (schema.multipleOf !== undefined && schema.multipleOf > 0 && !Number.isInteger(v / schema.multipleOf)) {
    errs.push(invalid(path, v, `${where} should be a multiple of ${schema.multipleOf}`));
  }
}

/** Array keywords: maxItems, minItems, and the uniqueness that list types `set` and `map` imply. */
export function checkArray(v: unknown[], schema: JsonSchemaProps, path: string, errs: FieldError[]): void {
  if (schema.maxItems !== undefined && v.length > schema.maxItems) errs.push(tooMany(path, v.length, schema.maxItems));
  if (schema.minItems !== undefined && v.length < schema.minItems) {
    errs.push(invalid(path, v.length, `${inBody(path)} in body should have at least ${schema.minItems} items`));
  }
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set' || schema.uniqueItems === true) {
    v.forEach((item, i) => {
      if (v.slice(0, i).some((prev) => jsonEqual(prev, item))) errs.push(duplicate(index(path, i), item));
    });
  } else if (listType === 'map') {
    const keys = schema['x-kubernetes-list-map-keys'] ?? [];
    const keyOf = (item: unknown): unknown[] => keys.map((k) => (isObject(item) ? item[k] : undefined));
    v.forEach((item, i) => {
      if (v.slice(0, i).some((prev) => jsonEqual(keyOf(prev), keyOf(item)))) {
        errs.push(duplicate(index(path, i), Object.fromEntries(keys.map((k, j) => [k, keyOf(item)[j]]))));
      }
    });
  }
}

/** Object keywords: maxProperties, minProperties. */
export function checkObjectSize(
  v: Record<string, unknown>,
  schema: JsonSchemaProps,
  path: string,
  errs: FieldError[],
): void {
  const n = Object.keys(v).length;
  if (schema.maxProperties !== undefined && n > schema.maxProperties) errs.push(tooMany(path, n, schema.maxProperties));
  if (schema.minProperties !== undefined && n < schema.minProperties) {
    errs.push(invalid(path, n, `${inBody(path)} in body should have at least ${schema.minProperties} properties`));
  }
}
