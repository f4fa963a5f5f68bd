import type { Taint, TaintEffect } from '../../../api/index.js';

/** A parse result: a value, or why the kubelet would reject the text. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const effects: readonly TaintEffect[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const nameRe = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const prefixRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** True for a Kubernetes qualified name (`prefix/name` or `name`), the rule for label and taint keys. */
export function isQualifiedName(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return nameRe.test(key);
  const prefix = key.slice(0, slash);
  const name = key.slice(slash + 1);
  return prefix.length > 0 && prefix.length <= 253 && prefixRe.test(prefix) && nameRe.test(name);
}

/** True for a valid label value (empty, or up to 63 alphanumerics with `-_.` inside). */
export function isLabelValue(value: string): boolean {
  return value === '' || nameRe.test(value);
}

/** Parses one taint as the kubelet's `--register-with-taints` does: `key[=value]:Effect`. */
export function parseTaint(text: string): Parsed<Taint> {
  const colon = text.lastIndexOf(':');
  if (colon < 0) return { ok: false, error: `invalid taint spec "${text}": missing ":Effect"` };
  const effect = text.slice(colon + 1);
  if (!effects.includes(effect as TaintEffect)) {
    return { ok: false, error: `invalid taint spec "${text}": unsupported taint effect "${effect}"` };
  }
  const kv = text.slice(0, colon);
  const eq = kv.indexOf('=');
  const key = eq < 0 ? kv : kv.slice(0, eq);
  const value = eq < 0 ? undefined : kv.slice(eq + 1);
  if (!isQualifiedName(key))
    return { ok: false, error: `invalid taint spec "${text}": key "${key}" is not a qualified name` };
  if (value !== undefined && (value.includes('=') || !isLabelValue(value))) {
    return { ok: false, error: `invalid taint spec "${text}": value "${value}" is not a valid label value` };
  }
  return {
    ok: true,
    value: value ? { key, value, effect: effect as TaintEffect } : { key, effect: effect as TaintEffect },
  };
}

/** Parses a comma-separated taint list; the kubelet rejects the whole flag if one entry is bad. */
export function parseTaintList(text: string): Parsed<Taint[]> {
  if (text === '') return { ok: true, value: [] };
  const out: Taint[] = [];
  for (const part of text.split(',')) {
    const t = parseTaint(part);
    if (!t.ok) return t;
    out.push(t.value);
  }
  return { ok: true, value: out };
}

/** Formats a taint as `key=value:Effect` (or `key:Effect` without a value). */
export function formatTaint(t: Taint): string {
  return t.value ? `${t.key}=${t.value}:${t.effect}` : `${t.key}:${t.effect}`;
}

/** True when both taints have the same key and effect (the API server's uniqueness rule). */
export function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/**
 * The union of the user's taints and the required ones. Taints are unique by key and effect on a Node, so a
 * required taint replaces a user taint with the same key and effect (its value wins); order: user's first.
 */
export function unionTaints(user: readonly Taint[], required: readonly Taint[]): Taint[] {
  const out: Taint[] = [];
  for (const t of user) {
    if (!required.some((r) => sameTaint(r, t)) && !out.some((o) => sameTaint(o, t))) out.push(strip(t));
  }
  for (const r of required) if (!out.some((o) => sameTaint(o, r))) out.push(strip(r));
  return out;
}

function strip(t: Taint): Taint {
  return t.value ? { key: t.key, value: t.value, effect: t.effect } : { key: t.key, effect: t.effect };
}

/** True when `have` contains a taint with the same key, effect and value as `want`. */
export function hasTaint(have: readonly Taint[], want: Taint): boolean {
  return have.some((t) => sameTaint(t, want) && (t.value ?? '') === (want.value ?? ''));
}
