/** ObjectMeta validation every kind gets: label keys and values, annotation keys and their total size. */
import type { FieldError } from '../../api/index.js';
import { isJson, type KObject } from '../types.js';

const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** kube-apiserver's limit on the summed length of all annotation keys and values. */
export const totalAnnotationSizeLimit = 256 * 1024;

const nameRule =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const subdomainRule =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const valueRule =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function invalid(field: string, value: string, detail: string): FieldError {
  return {
    type: 'FieldValueInvalid',
    field,
    detail,
    badValue: value,
    message: `${field}: Invalid value: ${JSON.stringify(value)}: ${detail}`,
  };
}

/** What is wrong with a qualified name (`prefix/name`), in kube-apiserver's words; empty when it is valid. */
export function qualifiedNameProblems(key: string): string[] {
  const parts = key.split('/');
  let name = key;
  const out: string[] = [];
  if (parts.length === 2) {
    const [prefix = '', rest = ''] = parts;
    name = rest;
    if (prefix.length === 0) out.push('prefix part must be non-empty');
    else if (prefix.length > 253) out.push('prefix part must be no more than 253 characters');
    else if (!dns1123Subdomain.test(prefix)) out.push(`prefix part ${subdomainRule}`);
  } else if (parts.length > 2) {
    return [`a qualified name ${nameRule} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) out.push('name part must be non-empty');
  else if (name.length > 63) out.push('name part must be no more than 63 characters');
  if (!qualifiedNamePart.test(name)) out.push(`name part ${nameRule}`);
  return out;
}

function labelErrors(labels: unknown): FieldError[] {
  if (!isJson(labels)) return [];
  const out: FieldError[] = [];
  for (const [k, v] of Object.entries(labels)) {
    for (const p of qualifiedNameProblems(k)) out.push(invalid('metadata.labels', k, p));
    const value = typeof v === 'string' ? v : String(v);
    if (value.length > 63) out.push(invalid('metadata.labels', value, 'must be no more than 63 characters'));
    if (!labelValue.test(value)) out.push(invalid('metadata.labels', value, valueRule));
  }
  return out;
}

function annotationErrors(annotations: unknown): FieldError[] {
  if (!isJson(annotations)) return [];
  const out: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    for (const p of qualifiedNameProblems(k.toLowerCase())) out.push(invalid('metadata.annotations', k, p));
    size += Buffer.byteLength(k) + Buffer.byteLength(typeof v === 'string' ? v : String(v));
  }
  if (size > totalAnnotationSizeLimit)
    out.push({
      type: 'FieldValueTooLong',
      field: 'metadata.annotations',
      detail: `may not be more than ${totalAnnotationSizeLimit} bytes`,
      message: `metadata.annotations: Too long: may not be more than ${totalAnnotationSizeLimit} bytes`,
    });
  return out;
}

/** The label and annotation errors of an object (any kind, built-in or custom). */
export function objectMetaErrors(o: KObject): FieldError[] {
  const m = o.metadata;
  if (m.labels === undefined && m.annotations === undefined) return [];
  return [...labelErrors(m.labels), ...annotationErrors(m.annotations)];
}
