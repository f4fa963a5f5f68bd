import { Type, type TSchema, type TUnsafe, type TString, type TInteger, type SchemaOptions } from '@sinclair/typebox';
import type { ValidationRule } from './json-schema-props.js';

/** Schema keywords the builders accept on top of TypeBox's own (the Kubernetes extensions). */
export interface KubeOptions extends SchemaOptions {
  'x-kubernetes-validations'?: ValidationRule[];
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
}

/** A Kubernetes resource quantity pattern (resource.Quantity), as controller-gen emits it. */
export const QuantityPattern =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/** A string restricted to the given values (an OpenAPI `enum`, not TypeBox's `anyOf` of literals). */
export function StringEnum<const T extends string>(values: readonly T[], options: KubeOptions = {}): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
}

/** A string with Kubernetes options (pattern, maxLength, rules). */
export function Str(
  options: KubeOptions & { pattern?: string; maxLength?: number; minLength?: number; format?: string } = {},
): TString {
  return Type.String(options);
}

/** An integer with the given format and bounds. */
export function Int(
  options: KubeOptions & { format?: 'int32' | 'int64'; minimum?: number; maximum?: number; default?: number } = {},
): TInteger {
  return Type.Integer(options);
}

/** A map of string keys to values of `value` (OpenAPI `additionalProperties`). */
export function MapOf<T extends TSchema>(
  value: T,
  options: KubeOptions & { maxProperties?: number } = {},
): TUnsafe<Record<string, T['static']>> {
  return Type.Unsafe<Record<string, T['static']>>({ type: 'object', additionalProperties: value, ...options });
}

/** A string map (labels, annotations, tags). */
export function StringMap(options: KubeOptions & { maxProperties?: number } = {}): TUnsafe<Record<string, string>> {
  return MapOf(Type.String(), options);
}

/** A resource quantity: an integer or a string matching the quantity pattern (x-kubernetes-int-or-string). */
export function Quantity(): TUnsafe<string | number> {
  return Type.Unsafe<string | number>({
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    pattern: QuantityPattern,
    'x-kubernetes-int-or-string': true,
  });
}

/** A map of resource names to quantities (core/v1 ResourceList). */
export function ResourceListSchema(options: KubeOptions = {}): TUnsafe<Record<string, string | number>> {
  return MapOf(Quantity(), options);
}

/** Shorthand for one CEL rule with its message. */
export function rule(r: string, message: string): ValidationRule {
  return { message, rule: r };
}
