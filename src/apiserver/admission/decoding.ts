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

/** A field's declared type: the model's type text, its format, and whether a number is a legal quantity there. */
interface Declared {
  type: string;
  format: string;
  quantity?: boolean;
}

function wrongType(value: unknown, d: Declared, at: Where): string {
  return `json: cannot unmarshal ${jsonType(value)} into Go struct field ${at.struct}.${at.path} of type ${goType(d.type, d.format)}`;
}

function mistypedScalar(value: unknown, d: Declared, at: Where): string | undefined {
  if (d.type === 'string' || d.type === 'Date')
    return typeof value === 'string' || (d.quantity && typeof value === 'number') ? undefined : wrongType(value, d, at);
  if (d.type === 'boolean') return typeof value === 'boolean' ? undefined : wrongType(value, d, at);
  if (typeof value !== 'number') return wrongType(value, d, at);
  if (d.format !== 'double' && d.format !== 'float' && !Number.isInteger(value))
    return `json: cannot unmarshal number ${value} into Go struct field ${at.struct}.${at.path} of type ${goType(d.type, d.format)}`;
  return undefined;
}

function mistypedModel(value: unknown, d: Declared, at: Where): string | undefined {
  const attrs = modelAttributes(d.type);
  if (!attrs) return undefined;
  if (!isJson(value)) return wrongType(value, d, at);
  for (const [k, v] of Object.entries(value)) {
    const a = attrs.find((x) => x.baseName === k);
    const e =
      a &&
      mistyped(
        v,
        { type: a.type, format: a.format, quantity: quantityMaps.has(k) },
        { struct: structName(d.type), path: `${at.path}.${k}` },
      );
    if (e) return e;
  }
  return undefined;
}

// The items of a map or array value with their declared type; undefined when the type is neither.
function collection(value: unknown, d: Declared): { items: unknown[] | undefined; item: Declared } | undefined {
  const map = mapType.exec(d.type)?.[1];
  if (map)
    return {
      items: isJson(value) ? Object.values(value) : undefined,
      item: { type: map, format: '', quantity: d.quantity },
    };
  const array = arrayType.exec(d.type)?.[1];
  if (array) return { items: Array.isArray(value) ? value : undefined, item: { type: array, format: d.format } };
  return undefined;
}

const scalarTypes: ReadonlySet<string> = new Set(['string', 'Date', 'boolean', 'number']);
const anyTypes: ReadonlySet<string> = new Set(['any', 'object', 'IntOrString']);

// The first value of the wrong JSON type under `value`, as Go's decoder words it; undefined when all fit.
function mistyped(value: unknown, d: Declared, at: Where): string | undefined {
  if (value === null || anyTypes.has(d.type)) return undefined;
  const c = collection(value, d);
  if (!c) return scalarTypes.has(d.type) ? mistypedScalar(value, d, at) : mistypedModel(value, d, at);
  if (!c.items) return wrongType(value, d, at);
  for (const v of c.items) {
    const e = mistyped(v, c.item, at);
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
    const e = mistyped(v, { type: a.type, format: a.format }, { struct: structName(model), path: k });
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

// A minimal JSON reader that notes keys repeated within one object; values are skipped, not built.
class DuplicateScanner {
  private i = 0;
  readonly found: string[] = [];

  constructor(private readonly text: string) {}

  private ws(): void {
    while (this.i < this.text.length && ' \t\r\n'.includes(this.text[this.i] ?? '')) this.i++;
  }

  private str(): string {
    const start = this.i++;
    while (this.i < this.text.length && this.text[this.i] !== '"') this.i += this.text[this.i] === '\\' ? 2 : 1;
    this.i++;
    return JSON.parse(this.text.slice(start, this.i)) as string;
  }

  private object(path: string, depth: number): void {
    this.i++;
    const seen = new Set<string>();
    this.ws();
    if (this.text[this.i] === '}') {
      this.i++;
      return;
    }
    do {
      this.ws();
      const key = this.str();
      const p = path ? `${path}.${key}` : key;
      if (seen.has(key)) this.found.push(p);
      seen.add(key);
      this.ws();
      this.i++; // ':'
      this.value(p, depth + 1);
      this.ws();
    } while (this.text[this.i++] === ',');
  }

  private array(path: string, depth: number): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === ']') {
      this.i++;
      return;
    }
    do {
      this.value(path, depth + 1);
      this.ws();
    } while (this.text[this.i++] === ',');
  }

  value(path: string, depth: number): void {
    if (depth > 10_000) throw new Error('too deep');
    this.ws();
    const ch = this.text[this.i];
    if (ch === '{') this.object(path, depth);
    else if (ch === '[') this.array(path, depth);
    else if (ch === '"') this.str();
    else while (this.i < this.text.length && !',}] \t\r\n'.includes(this.text[this.i] ?? '')) this.i++;
  }
}

/**
 * The keys a JSON text repeats within one object, as dotted paths (`metadata.labels.a`), in the order they
 * appear. Only called under fieldValidation=Strict; JSON.parse keeps the last value silently.
 */
export function duplicateKeys(text: string): string[] {
  const scanner = new DuplicateScanner(text);
  try {
    scanner.value('', 0);
  } catch {
    // Malformed or too deep: the JSON parser reports it.
  }
  return scanner.found;
}
