import { validateAndDefault, type FieldError } from '../validation/index.js';
import { crdSchema, findTenonCrd } from './index.js';

/** Validates a manifest against the Tenon CRD for its apiVersion/kind (test support). */
export function validateManifest(
  object: Record<string, unknown>,
  oldObject?: Record<string, unknown>,
): { object: unknown; errors: FieldError[] } {
  const crd = findTenonCrd(String(object.apiVersion), String(object.kind));
  if (!crd) throw new Error(`no CRD for ${String(object.kind)}`);
  return validateAndDefault({ schema: crdSchema(crd), object, ...(oldObject ? { oldObject } : {}) });
}

/** One change: a dotted path with `[i]` indexes, and the value to put there (undefined deletes it). */
export type Edit = [path: string, value: unknown];

/** A deep copy of `base` with the edits applied (test support). */
export function withEdits(base: Record<string, unknown>, ...edits: Edit[]): Record<string, unknown> {
  const copy = structuredClone(base);
  for (const [path, value] of edits) setPath(copy, path, value);
  return copy;
}

function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  let cur: unknown = root;
  for (const part of parts.slice(0, -1)) {
    const container = cur as Record<string, unknown>;
    if (container[part] === undefined) container[part] = {};
    cur = container[part];
  }
  const last = parts[parts.length - 1] ?? '';
  const container = cur as Record<string, unknown>;
  if (value === undefined) delete container[last];
  else container[last] = value;
}
