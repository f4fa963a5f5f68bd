/** RFC 7386 JSON merge patch. */
import { isJson } from '../types.js';

/** Applies a merge patch: objects merge recursively, null deletes, everything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isJson(patch)) return patch;
  const out: Record<string, unknown> = isJson(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
