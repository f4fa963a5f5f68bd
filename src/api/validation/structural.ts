import type { JsonSchemaProps } from '../schema/json-schema-props.js';
import { invalid, notSupported, required, typeInvalid, type FieldError } from './errors.js';
import { hasSchemaType, jsonEqual, jsonTypeOf } from './json-type.js';
import { checkArray, checkNumber, checkObjectSize, checkString } from './keywords.js';
import { child, inBody, index, isObject } from './path.js';

/**
 * Validates `value` against a structural schema as the CRD schema validator does (kube-openapi), appending
 * field errors in kube-apiserver's format. Never throws. Values of the wrong type are reported once and not
 * descended into.
 */
export function validateSchema(value: unknown, schema: JsonSchemaProps, path: string, errs: FieldError[]): void {
  if (value === null) {
    if (schema.nullable !== true && schema.type !== undefined) {
      errs.push(typeInvalid(path, 'null', `${inBody(path)} in body must be of type ${schema.type}: "null"`));
    }
    return;
  }
  if (!hasSchemaType(value, schema)) {
    const expected = schema['x-kubernetes-int-or-string'] === true ? 'integer,string' : (schema.type ?? '');
    const actual = jsonTypeOf(value);
    errs.push(typeInvalid(path, actual, `${inBody(path)} in body must be of type ${expected}: "${actual}"`));
    return;
  }
  if (schema.enum && !schema.enum.some((e) => jsonEqual(e, value))) errs.push(notSupported(path, value, schema.enum));
  checkComposition(value, schema, path, errs);
  if (typeof value === 'string') checkString(value, schema, path, errs);
  else if (typeof value === 'number') checkNumber(value, schema, path, errs);
  else if (Array.isArray(value)) validateArray(value, schema, path, errs);
  else if (isObject(value)) validateObject(value, schema, path, errs);
}

function validateArray(value: unknown[], schema: JsonSchemaProps, path: string, errs: FieldError[]): void {
  checkArray(value, schema, path, errs);
  const items = schema.items;
  if (items) value.forEach((item, i) => validateSchema(item, items, index(path, i), errs));
}

function validateObject(
  value: Record<string, unknown>,
  schema: JsonSchemaProps,
  path: string,
  errs: FieldError[],
): void {
  checkObjectSize(value, schema, path, errs);
  for (const name of schema.required ?? []) {
    if (value[name] === undefined) errs.push(required(child(path, name)));
  }
  const additional = schema.additionalProperties;
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const propSchema = schema.properties?.[key] ?? (typeof additional === 'object' ? additional : undefined);
    if (propSchema) validateSchema(v, propSchema, child(path, key), errs);
  }
}

// Value validations of structural schemas: allOf, anyOf, oneOf, not (their branches carry no types of their own,
// except for int-or-string's anyOf, which hasSchemaType already decided).
function checkComposition(value: unknown, schema: JsonSchemaProps, path: string, errs: FieldError[]): void {
  for (const sub of schema.allOf ?? []) validateSchema(value, sub, path, errs);
  const passes = (sub: JsonSchemaProps): boolean => {
    const inner: FieldError[] = [];
    validateSchema(value, sub, path, inner);
    return inner.length === 0;
  };
  if (schema.anyOf && schema['x-kubernetes-int-or-string'] !== true && !schema.anyOf.some(passes)) {
    errs.push(invalid(path, value, `${inBody(path)} in body must validate at least one schema (anyOf)`));
  }
  if (schema.oneOf && schema.oneOf.filter(passes).length !== 1) {
    errs.push(invalid(path, value, `${inBody(path)} in body must validate one and only one schema (oneOf)`));
  }
  if (schema.not && passes(schema.not)) {
    errs.push(invalid(path, value, `${inBody(path)} in body must not validate the schema (not)`));
  }
}
