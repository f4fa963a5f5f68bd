import type { KubeClient } from './client.js';
import { isConflict } from './errors.js';
import type { KubeObject, ResourceType } from './resources.js';

/** Options of updateWithRetry. */
export interface ConditionalUpdate<T extends KubeObject> {
  client: KubeClient;
  resource: ResourceType<T>;
  ref: { name: string; namespace?: string };
  /** The current copy, if the caller has one (e.g. from a cache); otherwise it is read. */
  current?: T;
  /** Returns the desired object computed from `fresh`, or undefined when nothing needs writing. */
  mutate: (fresh: T) => T | undefined;
  subresource?: 'status';
  attempts?: number;
}

/**
 * Writes an object conditionally on the resourceVersion it was computed from. On 409 Conflict it re-reads
 * the object and recomputes, so a change another agent made in between is never undone (SCENARIOS.md S1).
 * Returns the stored object (or the fresh one when `mutate` had nothing to change).
 */
export async function updateWithRetry<T extends KubeObject>(u: ConditionalUpdate<T>): Promise<T> {
  let fresh = u.current ?? (await u.client.get(u.resource, u.ref));
  const attempts = u.attempts ?? 5;
  for (let i = 1; ; i++) {
    const desired = u.mutate(structuredClone(fresh));
    if (!desired) return fresh;
    desired.metadata.resourceVersion = fresh.metadata.resourceVersion;
    try {
      return await u.client.update(u.resource, desired, u.subresource);
    } catch (e) {
      if (!isConflict(e) || i >= attempts) throw e;
      fresh = await u.client.get(u.resource, u.ref);
    }
  }
}
