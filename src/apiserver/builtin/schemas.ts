/**
 * OpenAPI schemas of the built-in kinds, derived from @kubernetes/client-node's generated models (each model
 * class lists its fields' JSON names and types): `kubectl explain deployment.spec` walks them, and
 * `fieldValidation=Strict` rejects fields they do not have. The models carry no descriptions; those explain
 * prints come from builtin-descriptions.ts.
 */
import * as k8s from '@kubernetes/client-node';
import { describeField } from './descriptions.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import { isJson, type Json } from '../types.js';

/** One field of a client-node model: its JSON name, TypeScript type text and OpenAPI format. */
export interface Attribute {
  baseName: string;
  type: string;
  format: string;
}

type Model = { getAttributeTypeMap(): Attribute[] };

const models = k8s as unknown as Record<string, unknown>;

function modelNamed(name: string): Model | undefined {
  const m = models[name];
  return typeof m === 'function' && 'getAttributeTypeMap' in m ? (m as unknown as Model) : undefined;
}

/** The client-node model class name of a built-in kind (`V1Deployment`, `CoreV1Event`, `EventsV1Event`). */
export function modelName(info: ResourceInfo): string | undefined {
  if (info.custom) return undefined;
  if (info.kind === 'Event') return info.group === 'events.k8s.io' ? 'EventsV1Event' : 'CoreV1Event';
  const name = `V1${info.kind}`;
  return modelNamed(name) ? name : undefined;
}

// Schema keys end in the kind-like name kubectl explain prints: `<DeploymentSpec>`.
function schemaKey(model: string): string {
  return `io.k8s.clientnode.${model}.${model.replace(/^(Core|Events|Storage|Discovery|Authentication|Admissionregistration|Apiextensions|Apiregistration)?V\d+((alpha|beta)\d+)?/, '')}`;
}

const mapType = /^\{ \[key: string\]: (.+); \}$/;
const arrayType = /^Array<(.+)>$/;

function scalarSchema(type: string, format: string): Json | undefined {
  if (type === 'string') return { type: 'string' };
  if (type === 'boolean') return { type: 'boolean' };
  if (type === 'number')
    return format === 'double' ? { type: 'number', format } : { type: 'integer', format: format || 'int64' };
  if (type === 'Date') return { type: 'string', format: 'date-time' };
  if (type === 'IntOrString') return { 'x-kubernetes-int-or-string': true };
  if (type === 'any' || type === 'object') return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return undefined;
}

function typeSchema(type: string, format: string, out: Map<string, Json>): Json {
  const scalar = scalarSchema(type, format);
  if (scalar) return scalar;
  const map = mapType.exec(type);
  if (map?.[1]) return { type: 'object', additionalProperties: typeSchema(map[1], '', out) };
  const array = arrayType.exec(type);
  if (array?.[1]) return { type: 'array', items: typeSchema(array[1], format, out) };
  if (!modelNamed(type)) return {};
  addModel(type, out);
  return { allOf: [{ $ref: `#/components/schemas/${schemaKey(type)}` }] };
}

function addModel(name: string, out: Map<string, Json>): void {
  const key = schemaKey(name);
  if (out.has(key)) return;
  const properties: Json = {};
  const schema: Json = { type: 'object', properties };
  const own = describeField(name, '', false);
  if (own) schema.description = own;
  out.set(key, schema);
  const attrs = modelNamed(name)?.getAttributeTypeMap() ?? [];
  const topLevel = attrs.some((a) => a.baseName === 'metadata');
  for (const a of attrs) {
    const field = typeSchema(a.type, a.format, out);
    // kubectl explain prints the field's description and then its type's: a generic field text is left out
    // when the type says it already.
    const typeText = describeField(a.type, '', false);
    const text =
      typeText && !describeField(name, a.baseName, false) ? undefined : describeField(name, a.baseName, topLevel);
    properties[a.baseName] = text ? { ...field, description: text } : field;
  }
}

/** The kind's schema and every schema it refers to, keyed as components/schemas; undefined for custom kinds. */
export function builtinSchemas(info: ResourceInfo): { root: Json; refs: Map<string, Json> } | undefined {
  const name = modelName(info);
  if (!name) return undefined;
  const refs = new Map<string, Json>();
  addModel(name, refs);
  const root = refs.get(schemaKey(name)) ?? {};
  refs.delete(schemaKey(name));
  return { root, refs };
}

/** The fields of a client-node model class (`V1PodSpec`), or undefined when there is no such model. */
export function modelAttributes(type: string): readonly Attribute[] | undefined {
  return modelNamed(type)?.getAttributeTypeMap();
}

function attributesOf(type: string): Map<string, Attribute> | undefined {
  const m = modelNamed(type);
  return m ? new Map(m.getAttributeTypeMap().map((a) => [a.baseName, a])) : undefined;
}

function unknownIn(value: unknown, type: string, path: string, out: string[]): void {
  const map = mapType.exec(type);
  const array = arrayType.exec(type);
  if (map?.[1] && isJson(value)) for (const [k, v] of Object.entries(value)) unknownIn(v, map[1], `${path}.${k}`, out);
  else if (array?.[1] && Array.isArray(value))
    value.forEach((v, i) => unknownIn(v, array[1] ?? '', `${path}[${i}]`, out));
  else if (isJson(value)) {
    const attrs = attributesOf(type);
    if (!attrs) return;
    for (const [k, v] of Object.entries(value)) {
      const a = attrs.get(k);
      const p = path ? `${path}.${k}` : k;
      if (!a) out.push(p);
      else unknownIn(v, a.type, p, out);
    }
  }
}

/** Paths of fields a built-in object has that its kind does not (for fieldValidation=Strict). */
export function unknownBuiltinFields(info: ResourceInfo, obj: Json): string[] {
  const name = modelName(info);
  const out: string[] = [];
  if (name) unknownIn(obj, name, '', out);
  return out;
}
