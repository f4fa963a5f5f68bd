/** Admission checks: object names, built-in required fields, and CRD schemas with CEL rules. */
import { invalidMessage, validateAndDefault, type FieldError } from '../../api/index.js';
import { unknownBuiltinFields } from '../builtin/schemas.js';
import { objectMetaErrors } from './object-meta.js';
import { podResourceErrors } from './pod-resources.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import { ApiError, invalidError, type StatusCause } from '../status.js';
import { isJson, type KObject } from '../types.js';

const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function fieldError(
  field: string,
  badValue: unknown,
  detail: string,
  type: FieldError['type'] = 'FieldValueInvalid',
): FieldError {
  const text = type === 'FieldValueRequired' ? 'Required value' : `Invalid value: ${JSON.stringify(badValue)}`;
  return { type, field, detail, badValue, message: `${field}: ${text}${detail ? `: ${detail}` : ''}` };
}

function nameErrors(info: ResourceInfo, name: string): FieldError[] {
  if (!name) return [fieldError('metadata.name', '', 'name or generateName is required', 'FieldValueRequired')];
  const label = info.kind === 'Namespace' || info.kind === 'Service';
  const ok = label ? dns1123Label.test(name) && name.length <= 63 : dns1123Subdomain.test(name) && name.length <= 253;
  if (ok) return [];
  const what = label
    ? "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
    : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  return [fieldError('metadata.name', name, what)];
}

function jobErrors(o: KObject): FieldError[] {
  const policy =
    isJson(o.spec) && isJson(o.spec.template) && isJson(o.spec.template.spec)
      ? o.spec.template.spec.restartPolicy
      : undefined;
  if (policy === 'Never' || policy === 'OnFailure') return [];
  return [
    {
      ...fieldError('spec.template.spec.restartPolicy', policy, ''),
      type: 'FieldValueNotSupported',
      message: `spec.template.spec.restartPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "OnFailure", "Never"`,
    },
  ];
}

function builtinErrors(o: KObject): FieldError[] {
  const resources = podResourceErrors(o);
  if (o.kind === 'Job') return [...jobErrors(o), ...resources];
  if (o.kind !== 'Pod') return resources;
  const spec = isJson(o.spec) ? o.spec : {};
  const containers = Array.isArray(spec.containers) ? spec.containers : [];
  if (containers.length === 0) return [fieldError('spec.containers', undefined, '', 'FieldValueRequired')];
  const errs: FieldError[] = [];
  containers.forEach((c, i) => {
    if (!isJson(c) || !c.name) errs.push(fieldError(`spec.containers[${i}].name`, undefined, '', 'FieldValueRequired'));
    if (!isJson(c) || !c.image)
      errs.push(fieldError(`spec.containers[${i}].image`, undefined, '', 'FieldValueRequired'));
  });
  return [...errs, ...resources];
}

/** Throws 422 Invalid with the kube-apiserver message and one cause per error. */
export function throwInvalid(info: ResourceInfo, name: string, errors: FieldError[]): never {
  const message = invalidMessage({ kind: info.kind, group: info.group, name, errors });
  const causes: StatusCause[] = errors.map((e) => ({
    reason: e.type,
    message: e.message.slice(e.field.length + 2),
    field: e.field,
  }));
  throw invalidError({ kind: info.kind, group: info.group, name, resource: info.plural }, message, causes);
}

/** Paths of fields the schema pruned (unknown fields), for fieldValidation=Strict. */
export function prunedPaths(before: unknown, after: unknown, path = ''): string[] {
  if (!isJson(before)) return [];
  if (!isJson(after)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(before)) {
    const p = path ? `${path}.${k}` : k;
    if (!(k in after)) out.push(p);
    else if (isJson(v)) out.push(...prunedPaths(v, after[k], p));
    else if (Array.isArray(v) && Array.isArray(after[k])) {
      const a = after[k] as unknown[];
      v.forEach((item, i) => out.push(...prunedPaths(item, a[i], `${p}[${i}]`)));
    }
  }
  return out;
}

// fieldValidation=Strict: repeated keys and fields the kind does not have are a 400, as kube-apiserver's strict
// decoding (repeated keys first).
function rejectUnknown(info: ResourceInfo, unknown: string[], duplicates: string[] = []): void {
  if (unknown.length === 0 && duplicates.length === 0) return;
  const list = [...duplicates.map((p) => `duplicate field "${p}"`), ...unknown.map((p) => `unknown field "${p}"`)].join(
    ', ',
  );
  throw new ApiError(
    400,
    'BadRequest',
    `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: strict decoding error: ${list}`,
  );
}

/** Validates (and for custom resources prunes and defaults) an object; returns the object to store. */
export function admit(
  info: ResourceInfo,
  o: KObject,
  opts: { old?: KObject; strict?: boolean; duplicates?: string[] },
): KObject {
  const name = o.metadata.name ?? '';
  const errs = opts.old ? [] : nameErrors(info, name);
  errs.push(...objectMetaErrors(o));
  if (!info.custom || !info.schema) {
    if (opts.strict) rejectUnknown(info, unknownBuiltinFields(info, o), opts.duplicates);
    errs.push(...builtinErrors(o));
    if (errs.length > 0) throwInvalid(info, name, errs);
    return o;
  }
  const result = validateAndDefault({ schema: info.schema, object: o, oldObject: opts.old });
  if (opts.strict) rejectUnknown(info, prunedPaths(o, result.object), opts.duplicates);
  errs.push(...result.errors);
  if (errs.length > 0) throwInvalid(info, name, errs);
  return result.object as KObject;
}
