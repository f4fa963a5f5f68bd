/**
 * One frozen copy of the parts of cached objects that repeat whole: a ReplicaSet's pods have the same labels and
 * owner, pods of one template on one node have the same spec (containers, tolerations, security context: about a
 * dozen objects), and conditions written in the same second are alike. Cached pods share those parts instead of
 * keeping one copy each. Shared parts are frozen, so a consumer that changed a cached object (which the informer
 * contract forbids) fails loudly instead of changing other objects.
 */

import { createHash } from 'node:crypto';

/** Parts whose text is longer than this are kept as they are (hashing them costs more than sharing saves). */
const maxTextLength = 16_384;
/** Parts whose text is longer than this are keyed by its SHA-1 rather than the text (a pod spec is ~1.5 KB). */
const maxKeyLength = 128;
/** The table starts over past this many parts, so unique parts cannot grow it without bound. */
const maxParts = 1 << 15;

/** Status fields shared whole (besides each condition). */
const sharedStatus = ['containerStatuses', 'initContainerStatuses', 'hostIPs'] as const;

/** Metadata fields shared whole. */
const sharedMetadata = ['labels', 'annotations', 'ownerReferences'] as const;

function deepFreeze(o: unknown): void {
  if (o === null || typeof o !== 'object' || Object.isFrozen(o)) return;
  for (const v of Object.values(o)) deepFreeze(v);
  Object.freeze(o);
}

/** A table of shared, frozen object parts. */
export class SharedSubtrees {
  private readonly table = new Map<string, unknown>();

  /** The shared copy of `part` (equal to it, frozen). */
  share<T>(part: T): T {
    if (part === null || typeof part !== 'object') return part;
    const text = JSON.stringify(part);
    if (text.length > maxTextLength) return part;
    // '#' starts no JSON text, so a digest key never equals a text key.
    const key = text.length > maxKeyLength ? `#${createHash('sha1').update(text).digest('base64')}` : text;
    const shared = this.table.get(key);
    if (shared !== undefined) return shared as T;
    if (this.table.size >= maxParts) this.table.clear();
    deepFreeze(part);
    this.table.set(key, part);
    return part;
  }

  /**
   * Replaces the repeating parts of a freshly parsed object by shared copies: metadata labels, annotations and
   * owner references, each status condition, container statuses, host IPs, and a Pod's whole spec.
   */
  shareParts(obj: { kind?: string; metadata?: object; spec?: unknown; status?: unknown }): void {
    const metadata = obj.metadata as Record<string, unknown> | undefined;
    if (metadata) for (const k of sharedMetadata) if (metadata[k] !== undefined) metadata[k] = this.share(metadata[k]);
    if (obj.kind === 'Pod' && obj.spec !== undefined) obj.spec = this.share(obj.spec);
    const status = obj.status as Record<string, unknown> | undefined;
    if (!status) return;
    // Each condition, then the list: pods scheduled and started in the same seconds have the same conditions.
    if (Array.isArray(status.conditions))
      status.conditions = this.share(status.conditions.map((c: unknown) => this.share(c)));
    // Pods of one template started in the same second report the same container statuses; a node's pods, its hostIPs.
    for (const k of sharedStatus) if (status[k] !== undefined) status[k] = this.share(status[k]);
  }
}
