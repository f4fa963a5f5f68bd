/**
 * What kube-apiserver's decoder refuses before validation runs (400 BadRequest): a body whose apiVersion or kind
 * is not the URL's, values of the wrong JSON type in built-in kinds, unparsable resource quantities, and under
 * `fieldValidation=Strict` duplicate keys.
 */
import { modelName, modelAttributes } from '../builtin/schemas.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import { apiVersionOf } from '../resources/resource-types.js';
import { QuantityPattern } from '../../api/schema/builders.js';
import { ApiError, badRequest } from '../status.js';
import { isJson } from '../types.js';

const mapType = /^\{ \[key: string\]: (.+); \}$/;
const arrayType = /^Array<(.+)>$/;
const quantityPattern = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const exactQuantity = new RegExp(QuantityPattern);

// Map-of-string fields that hold resource quantities: JSON numbers are legal there (Quantity unmarshals them).
const quantityMaps: ReadonlySet<string> = new Set([
  'requests',
  'limits',
  'capacity',
  'allocatable',
  'hard',
  'used',
  'overhead',
  'allocatedResources',
  'max',
  'min',
  'default',
  'defaultRequest',
  'maxLimitRequestRatio',
]);

function cannotHandle(info: ResourceInfo, bodyKind: string, version: string, why: string): ApiError {
  return badRequest(`${bodyKind} in version "${version}" cannot be handled as a ${info.kind}: ${why}`);
}

/** 400 when the body names another apiVersion or kind than the URL serves (an absent one takes the URL's). */
export function checkTypeMatches(info: ResourceInfo, body: Record<string, unknown>): void {
  const expected = apiVersionOf(info);
  const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : '';
  const kind = typeof body.kind === 'string' ? body.kind : '';
  if (apiVersion && apiVersion !== expected) {
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
    if (group === info.group)
      throw badRequest(
        `the API version in the data (${apiVersion}) does not match the expected API version (${expected})`,
      );
    throw cannotHandle(
      info,
      info.kind,
      info.version,
      `no kind "${kind || info.kind}" is registered for version "${apiVersion}" in scheme "pkg/runtime/scheme.go:110"`,
    );
  }
  if (kind && kind !== info.kind)
    throw cannotHandle(
      info,
      kind,
      info.version,
      `converting (${info.version}.${kind}) to (${info.group || 'core'}.${info.kind}): unknown conversion`,
    );
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

function goType(type: string, format: string): string {
  const map = mapType.exec(type);
  if (map?.[1]) return `map[string]${goType(map[1], '')}`;
  const array = arrayType.exec(type);
  if (array?.[1]) return `[]${goType(array[1], format)}`;
  if (type === 'number') return format === 'double' ? 'float64' : format || 'int64';
  if (type === 'boolean') return 'bool';
  if (type === 'string' || type === 'Date') return 'string';
  return `v1.${structName(type)}`;
}

function structName(model: string): string {
  return model.replace(/^[A-Z][a-z]*V\d+((alpha|beta)\d+)?|^V\d+((alpha|beta)\d+)?/, '');
}

interface Where {
  struct: string;
  path: string;
}

// The first value of the wrong JSON type under `value`, as Go's decoder words it; undefined when all fit.
function mistyped(value: unknown, type: string, format: string, at: Where, quantity = false): string | undefined {
  if (value === null || type === 'any' || type === 'object' || type === 'IntOrString') return undefined;
  const wrong = (): string =>
    `json: cannot unmarshal ${jsonType(value)} into Go struct field ${at.struct}.${at.path} of type ${goType(type, format)}`;
  const map = mapType.exec(type);
  if (map?.[1]) {
    if (!isJson(value)) return wrong();
    for (const v of Object.values(value)) {
      const e = mistyped(v, map[1], '', at, quantity);
      if (e) return e;
    }
    return undefined;
  }
  const array = arrayType.exec(type);
  if (array?.[1]) {
    if (!Array.isArray(value)) return wrong();
    for (const v of value) {
      const e = mistyped(v, array[1], format, at);
      if (e) return e;
    }
    return undefined;
  }
  if (type === 'string' || type === 'Date') {
    if (typeof value === 'string' || (quantity && typeof value === 'number')) return undefined;
    return wrong();
  }
  if (type === 'boolean') return typeof value === 'boolean' ? undefined : wrong();
  if (type === 'number') {
    if (typeof value !== 'number') return wrong();
    if (format !== 'double' && format !== 'float' && !Number.isInteger(value))
      return `json: cannot unmarshal number ${value} into Go struct field ${at.struct}.${at.path} of type ${goType(type, format)}`;
    return undefined;
  }
  const attrs = modelAttributes(type);
  if (!attrs) return undefined;
  if (!isJson(value)) return wrong();
  for (const [k, v] of Object.entries(value)) {
    const a = attrs.find((x) => x.baseName === k);
    if (!a) continue;
    const e = mistyped(v, a.type, a.format, { struct: structName(type), path: `${at.path}.${k}` }, quantityMaps.has(k));
    if (e) return e;
  }
  return undefined;
}

/** 400 when a built-in object holds a value of the wrong JSON type, with Go's decoder message. */
export function checkValueTypes(info: ResourceInfo, body: Record<string, unknown>): void {
  const model = modelName(info);
  if (!model) return;
  const attrs = modelAttributes(model) ?? [];
  for (const [k, v] of Object.entries(body)) {
    const a = attrs.find((x) => x.baseName === k);
    if (!a) continue;
    const e = mistyped(v, a.type, a.format, { struct: structName(model), path: k }, false);
    if (e) throw cannotHandle(info, info.kind, info.version, e);
  }
}

/** 400 when a container's requests or limits hold something that is not a quantity (checked when decoding). */
export function checkQuantities(info: ResourceInfo, containers: Iterable<unknown>): void {
  for (const c of containers) {
    const resources = isJson(c) && isJson(c.resources) ? c.resources : undefined;
    for (const list of [resources?.requests, resources?.limits]) {
      if (!isJson(list)) continue;
      for (const q of Object.values(list))
        if (typeof q === 'string' && !(quantityPattern.test(q) && exactQuantity.test(q)))
          throw cannotHandle(
            info,
            info.kind,
            info.version,
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
          );
    }
  }
}

/**
 * The keys a JSON text repeats within one object, as dotted paths (`metadata.labels.a`), in the order they
 * appear. Only called under fieldValidation=Strict; JSON.parse keeps the last value silently.
 */
export function duplicateKeys(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\r\n'.includes(text[i] ?? '')) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string, depth: number): void => {
    ws();
    const ch = text[i];
    if (depth > 10_000) throw new Error('too deep');
    if (ch === '{') {
      i++;
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        const key = str();
        const p = path ? `${path}.${key}` : key;
        if (seen.has(key)) out.push(p);
        seen.add(key);
        ws();
        i++; // ':'
        value(p, depth + 1);
        ws();
        if (text[i++] !== ',') return;
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(path, depth + 1);
        ws();
        if (text[i++] !== ',') return;
      }
    }
    if (ch === '"') {
      str();
      return;
    }
    while (i < text.length && !',}] \t\r\n'.includes(text[i] ?? '')) i++;
  };
  try {
    value('', 0);
  } catch {
    // Malformed or too deep: the JSON parser reports it.
  }
  return out;
}
