import type { Taint } from '../../../api/index.js';

/** Two taints are the same taint when key and effect match (the value is data, not identity). */
export function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/** Whether `list` holds `t` (by key and effect). */
export function hasTaint(list: readonly Taint[] | undefined, t: Taint): boolean {
  return (list ?? []).some((x) => sameTaint(x, t));
}

/** Formats a taint as the kubelet's flag does: `key=value:Effect` or `key:Effect`. */
export function taintString(t: Taint): string {
  return t.value ? `${t.key}=${t.value}:${t.effect}` : `${t.key}:${t.effect}`;
}

/** A sorted, readable list of taints for messages. */
export function taintList(list: readonly Taint[]): string {
  return list.length ? list.map(taintString).sort().join(', ') : '(none)';
}
