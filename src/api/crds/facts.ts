import type { JsonSchemaProps, ValidationRule } from '../schema/json-schema-props.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from './types.js';

/**
 * The facts of a CRD that decide what the API server accepts, defaults and shows, keyed by where they live
 * (`nodepools.karpenter.sh v1 spec.weight maximum`) with their value as JSON. Descriptions are prose and left out.
 */
export type CrdFacts = Map<string, string>;

// Schema keywords compared one by one; anything else (description, title, example) is not a fact.
const keywords = [
  'type',
  'format',
  'enum',
  'default',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'required',
  'nullable',
  'anyOf',
  'allOf',
  'oneOf',
  'not',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
] as const;

/** Every fact of the given CRD (names, scope, each version's columns, subresources and schema). */
export function crdFacts(crd: CustomResourceDefinition): CrdFacts {
  const facts: CrdFacts = new Map();
  const at = (key: string, value: unknown): void => {
    facts.set(`${crd.metadata.name} ${key}`, JSON.stringify(value));
  };
  at('group', crd.spec.group);
  at('scope', crd.spec.scope);
  const { kind, listKind, plural, singular, shortNames, categories } = crd.spec.names;
  at('names', { kind, listKind, plural, singular, shortNames: shortNames ?? [], categories: categories ?? [] });
  for (const version of crd.spec.versions) versionFacts(version, (key, value) => at(`${version.name} ${key}`, value));
  return facts;
}

type Put = (key: string, value: unknown) => void;

function versionFacts(version: CustomResourceDefinitionVersion, at: Put): void {
  at('served', version.served);
  at('storage', version.storage);
  at('deprecated', version.deprecated ?? false);
  at('subresources', version.subresources ?? {});
  const columns = version.additionalPrinterColumns ?? [];
  at(
    'columns',
    columns.map((c) => c.name),
  );
  for (const c of columns)
    at(`column ${c.name}`, { jsonPath: c.jsonPath, type: c.type, priority: c.priority ?? 0, format: c.format ?? '' });
  const schema = version.schema?.openAPIV3Schema;
  if (schema) schemaFacts(schema, '', at);
}

function schemaFacts(schema: JsonSchemaProps, path: string, at: Put): void {
  const where = path === '' ? '.' : path;
  // A node without a type (int-or-string) is still a field: record its type as absent so it counts.
  at(`${where} type`, schema.type ?? null);
  for (const k of keywords) {
    if (k === 'type') continue;
    const value = schema[k];
    if (value === undefined) continue;
    at(`${where} ${k}`, k === 'required' ? [...(value as string[])].sort() : value);
  }
  for (const r of schema['x-kubernetes-validations'] ?? []) at(`${where} rule ${r.rule}`, ruleFacts(r));
  for (const [name, child] of Object.entries(schema.properties ?? {})) schemaFacts(child, `${path}.${name}`, at);
  if (schema.items) schemaFacts(schema.items, `${path}[]`, at);
  if (typeof schema.additionalProperties === 'object') schemaFacts(schema.additionalProperties, `${path}{}`, at);
  else if (schema.additionalProperties !== undefined) at(`${where} additionalProperties`, schema.additionalProperties);
}

function ruleFacts(r: ValidationRule): Record<string, unknown> {
  const out: Record<string, unknown> = { message: r.message ?? '' };
  if (r.messageExpression !== undefined) out.messageExpression = r.messageExpression;
  if (r.reason !== undefined) out.reason = r.reason;
  if (r.fieldPath !== undefined) out.fieldPath = r.fieldPath;
  if (r.optionalOldSelf !== undefined) out.optionalOldSelf = r.optionalOldSelf;
  return out;
}

/** How two sets of facts compare: the keys that agree, and the ones that differ or exist on one side only. */
export interface FactComparison {
  matching: number;
  total: number;
  /** Keys whose values differ, or that only one side has, each with both values (`undefined` when absent). */
  differences: { key: string; ours: string | undefined; theirs: string | undefined }[];
}

/** Compares our facts with upstream's, key by key over the union of both. */
export function compareFacts(ours: CrdFacts, theirs: CrdFacts): FactComparison {
  const keys = [...new Set([...ours.keys(), ...theirs.keys()])].sort();
  const differences: FactComparison['differences'] = [];
  for (const key of keys) {
    const a = ours.get(key);
    const b = theirs.get(key);
    if (a !== b) differences.push({ key, ours: a, theirs: b });
  }
  return { matching: keys.length - differences.length, total: keys.length, differences };
}
