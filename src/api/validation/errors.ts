/** The kinds of field error kube-apiserver reports (k8s.io/apimachinery field.ErrorType). */
export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueForbidden'
  | 'FieldValueDuplicate'
  | 'FieldValueTypeInvalid';

/** One validation error, with the message formatted as kube-apiserver formats it. */
export interface FieldError {
  type: FieldErrorType;
  /** The field path, e.g. `spec.template.spec.requirements[0].operator`. */
  field: string;
  detail: string;
  badValue?: unknown;
  /** The full text, e.g. `field: Unsupported value: "Equals": supported values: "In", "NotIn"`. */
  message: string;
}

const typeText: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTypeInvalid: 'Invalid value',
};

// Types whose message omits the bad value (field.Error.ErrorBody).
const valueless = new Set<FieldErrorType>(['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong']);

/** Prints a value as Go's %v / %q would in field errors: strings quoted, numbers and booleans bare. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '"null"';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** Builds a FieldError with its kube-apiserver message. */
export function fieldError(
  type: FieldErrorType,
  field: string,
  opts: { detail?: string; badValue?: unknown } = {},
): FieldError {
  const detail = opts.detail ?? '';
  const hasValue = !valueless.has(type) && 'badValue' in opts;
  let body = typeText[type];
  if (hasValue) body += `: ${formatValue(opts.badValue)}`;
  if (detail) body += `: ${detail}`;
  const err: FieldError = { type, field, detail, message: `${field}: ${body}` };
  if ('badValue' in opts) err.badValue = opts.badValue;
  return err;
}

/** `Required value`. */
export const required = (field: string, detail = ''): FieldError => fieldError('FieldValueRequired', field, { detail });
/** `Invalid value: <v>: detail`. */
export const invalid = (field: string, badValue: unknown, detail: string): FieldError =>
  fieldError('FieldValueInvalid', field, { badValue, detail });
/** `Unsupported value: <v>: supported values: "a", "b"`. */
export function notSupported(field: string, badValue: unknown, supported: unknown[]): FieldError {
  const list = supported.map((v) => (typeof v === 'string' ? JSON.stringify(v) : formatValue(v))).join(', ');
  return fieldError('FieldValueNotSupported', field, { badValue, detail: `supported values: ${list}` });
}
/** `Too long: may not be more than N bytes`. */
export const tooLong = (field: string, max: number): FieldError =>
  fieldError('FieldValueTooLong', field, { detail: `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` });
/** `Too many: N: must have at most M items`. */
export const tooMany = (field: string, actual: number, max: number): FieldError =>
  fieldError('FieldValueTooMany', field, {
    badValue: actual,
    detail: `must have at most ${max} ${max === 1 ? 'item' : 'items'}`,
  });
/** `Forbidden: detail`. */
export const forbidden = (field: string, detail: string): FieldError =>
  fieldError('FieldValueForbidden', field, { detail });
/** `Duplicate value: <v>`. */
export const duplicate = (field: string, badValue: unknown, detail = ''): FieldError =>
  fieldError('FieldValueDuplicate', field, { badValue, detail });
/** A type mismatch, as the CRD schema validator reports it. */
export const typeInvalid = (field: string, badValue: unknown, detail: string): FieldError =>
  fieldError('FieldValueTypeInvalid', field, { badValue, detail });
