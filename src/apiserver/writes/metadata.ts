/** Server-maintained metadata: names from generateName, uids, timestamps, generation and managedFields. */
import crypto from 'node:crypto';
import { apiVersionOf, type ResourceInfo } from '../resources/resource-types.js';
import { deepEqual, type KObject } from '../types.js';

// The alphabet upstream's generateName suffix uses (no vowels, no confusable digits).
const alphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** A name from generateName with upstream's 5-character random suffix. */
export function generatedName(prefix: string): string {
  const bytes = crypto.randomBytes(5);
  let suffix = '';
  for (const b of bytes) suffix += alphabet[b % alphabet.length];
  return `${prefix.slice(0, 58)}${suffix}`;
}

/** A random RFC 4122 uid. */
export function newUid(): string {
  return crypto.randomUUID();
}

/** True when the spec-like part of an object (all but metadata and status) changed: generation bumps. */
export function specChanged(a: KObject, b: KObject): boolean {
  const { metadata: _ma, status: _sa, ...ra } = a;
  const { metadata: _mb, status: _sb, ...rb } = b;
  return !deepEqual(ra, rb);
}

/** Sets apiVersion and kind to the served ones. */
export function stampType(info: ResourceInfo, o: KObject): void {
  o.apiVersion = apiVersionOf(info);
  o.kind = info.kind;
}

/** A user agent's short name as kube-apiserver derives the default field manager (`kubectl`, `node`). */
export function managerFromAgent(agent: string | undefined): string {
  const first = (agent ?? 'unknown').split('/')[0] ?? 'unknown';
  return first.slice(0, 128) || 'unknown';
}
