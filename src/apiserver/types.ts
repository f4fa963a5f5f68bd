/** The JSON shapes the embedded API server stores and serves. */

import type { ObjectMeta, OwnerReference } from '../api/index.js';

/** Any JSON object. */
export type Json = Record<string, unknown>;

/** Object metadata as stored (the fields the server reads and maintains, and any others a client sent). */
export interface Meta extends ObjectMeta {
  managedFields?: unknown[];
  [k: string]: unknown;
}

/** metav1.OwnerReference. */
export type OwnerRef = OwnerReference;

/** A stored Kubernetes object. */
export interface KObject {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  [k: string]: unknown;
}

/** True when `v` is a plain JSON object. */
export function isJson(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Time source of the server: only `now` is needed (the shape matches Tenon's Clock). */
export interface ServerClock {
  now(): number;
}

/** RFC 3339 text at second precision, as Kubernetes writes timestamps. */
export function timestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** `timestamp`, remembering the last second formatted: writes come in bursts within one second. */
export class Timestamps {
  private last = { second: Number.NaN, text: '' };

  /** The RFC 3339 text of `ms`. */
  format(ms: number): string {
    const second = Math.floor(ms / 1000);
    if (second !== this.last.second) this.last = { second, text: timestamp(ms) };
    return this.last.text;
  }
}

/** Deep equality of JSON values, ignoring key order (clients reorder keys when they re-serialise). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (!isJson(a) || !isJson(b)) return false;
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
}
