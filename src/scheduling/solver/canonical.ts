/**
 * The solver's input order: pods sorted by what they are (namespace, labels, spec, creation time), never by their
 * names, UIDs or position in the input, so the same pods in any order and under any names give the same fleet.
 * Pods equal in all of these are interchangeable; among them the input order stays (it cannot change the fleet).
 */
import type { Pod, SchedulingInput } from '../model.js';

/** JSON with object keys sorted, so equal content gives equal text whatever order its fields were written in. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** Content keys per spec and per labels object: the pods of one template share both, so each is written once. */
export class ContentKeys {
  private readonly specs = new WeakMap<object, string>();
  private readonly labels = new WeakMap<object, string>();

  private of(cache: WeakMap<object, string>, v: object): string {
    let k = cache.get(v);
    if (k === undefined) cache.set(v, (k = canonicalJson(v)));
    return k;
  }

  /** What the pod is, without its identity. */
  key(pod: Pod): string {
    const m = pod.metadata;
    return `${m.namespace ?? 'default'}\0${m.creationTimestamp ?? ''}\0${m.labels ? this.of(this.labels, m.labels) : ''}\0${this.of(this.specs, pod.spec)}`;
  }
}

/** `input` with its pods in content order (the same object when they already are). */
export function inContentOrder(input: SchedulingInput, keys: ContentKeys = new ContentKeys()): SchedulingInput {
  const keyed = input.pods.map((pod, i) => ({ pod, i, key: keys.key(pod) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i));
  if (keyed.every((k, i) => k.i === i)) return input;
  return { ...input, pods: keyed.map((k) => k.pod) };
}
