import type { JsonSchemaProps } from '../schema/json-schema-props.js';
import { validateRules } from './cel/rules.js';
import { applyDefaults } from './defaults.js';
import { invalid, type FieldError, type FieldErrorType } from './errors.js';
import { prune } from './prune.js';
import { validateSchema } from './structural.js';

const blockedMessage =
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

/** The schema errors after which kube-apiserver evaluates no CEL rule of the object. */
const blockingTypes: ReadonlySet<FieldErrorType> = new Set<FieldErrorType>([
  'FieldValueNotSupported',
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
]);

/** What to validate: a CRD version's schema, the object, and on update the object it replaces. */
export interface ValidateOptions {
  /** A CRD version's openAPIV3Schema, with x-kubernetes-validations, defaults and x-kubernetes-* extensions. */
  schema: JsonSchemaProps;
  object: unknown;
  /** The stored object on update, for transition rules (`oldSelf`). */
  oldObject?: unknown;
}

/** The pruned and defaulted copy of the object, and every error found. */
export interface ValidationResult {
  object: unknown;
  errors: FieldError[];
}

/**
 * Prunes unknown fields, applies defaults, then validates the schema and its CEL rules, as kube-apiserver does
 * for a custom resource. Works for any structural CRD schema. Never throws: a failure inside becomes an error.
 */
export function validateAndDefault(opts: ValidateOptions): ValidationResult {
  let object: unknown = opts.object;
  const errors: FieldError[] = [];
  try {
    object = cloneJson(opts.object);
    const schema = opts.schema;
    prune(object, schema, { root: true });
    applyDefaults(object, schema);
    validateSchema(object, schema, '', errors);
    const hasOld = opts.oldObject !== undefined && opts.oldObject !== null;
    const old = hasOld ? cloneJson(opts.oldObject) : undefined;
    if (hasOld) {
      prune(old, schema, { root: true });
      applyDefaults(old, schema);
    }
    // As kube-apiserver (hasBlockingErr): a wrong type, a value outside its enum, a missing required field or a
    // length or count over its maximum blocks every CEL rule, since rules assume what the schema promises.
    if (errors.some((e) => blockingTypes.has(e.type))) {
      errors.push(invalid('<nil>', null, blockedMessage));
    } else {
      validateRules({ value: object, schema, path: '', old, hasOld }, errors);
    }
  } catch (e: unknown) {
    errors.push(invalid('<root>', 'object', `internal error: ${e instanceof Error ? e.message : String(e)}`));
  }
  return { object, errors };
}

/**
 * The kube-apiserver "is invalid" message: `NodePool.karpenter.sh "default" is invalid: <e>` for one error,
 * `... is invalid: [e1, e2]` for several.
 */
export function invalidMessage(opts: { kind: string; group: string; name: string; errors: FieldError[] }): string {
  const qualified = opts.group ? `${opts.kind}.${opts.group}` : opts.kind;
  const list = opts.errors.map((e) => e.message);
  const body = list.length === 1 ? (list[0] ?? '') : `[${list.join(', ')}]`;
  return `${qualified} ${JSON.stringify(opts.name)} is invalid: ${body}`;
}

// A JSON-only deep copy: drops functions/undefined and survives odd inputs (cycles become an error upstream).
function cloneJson(v: unknown): unknown {
  if (v === undefined) return undefined;
  return JSON.parse(JSON.stringify(v)) as unknown;
}
