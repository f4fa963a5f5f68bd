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

let lastStamp = { second: Number.NaN, text: '' };

/** RFC 3339 text at second precision, as Kubernetes writes timestamps. */
export function timestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  // Writes come in bursts within one second: formatting a Date each time was a visible share of a create.
  if (second !== lastStamp.second) lastStamp = { second, text: new Date(second * 1000).toISOString().replace('.000Z', 'Z') };
  return lastStamp.text;
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
