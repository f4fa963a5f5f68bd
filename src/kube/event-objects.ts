import { rfc3339 } from '../clock/index.js';
import type { KubeObject } from './resources.js';
import { TokenBucket } from './token-bucket.js';

/** A Kubernetes Event to record against an object. */
export interface EventSpec {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /**
   * Karpenter's de-duplication: another event with this reason and these values within `timeoutMs` (default
   * 2 min) is dropped, whatever its message.
   */
  dedupe?: { values: readonly string[]; timeoutMs?: number };
  /** A limiter shared by a family of events (Karpenter rate-limits Nominated across pods); a refused event is dropped. */
  limiter?: TokenBucket;
}

/** Events remembered for de-duplication (client-go's event correlator keeps an LRU cache of this size). */
export const maxRecentEvents = 4096;
/** client-go's spam filter: each source may record 25 events about one object, then one every 5 minutes. */
const spamBurst = 25;
const spamQps = 1 / 300;
/** Karpenter's default de-duplication timeout. */
const defaultDedupeTimeout = 2 * 60_000;

/** Sets `key` at the most recent end of an insertion-ordered map used as an LRU, dropping the oldest past `max`. */
export function touchLru<V>(m: Map<string, V>, key: string, value: V, max: number): void {
  m.delete(key);
  m.set(key, value);
  if (m.size <= max) return;
  const oldest = m.keys().next();
  if (!oldest.done) m.delete(oldest.value);
}

/**
 * Whether an event gets written at all: Karpenter's per-event de-duplication and shared limiters, then client-go's
 * spam filter (25 events per source and object, then one every 5 minutes). One per recorder.
 */
export class EventAdmission {
  private readonly spam = new Map<string, TokenBucket>();
  private readonly dedupedUntil = new Map<string, number>();

  /** Whether `e` about `obj` at `now` is recorded; an admitted event counts against the filters. */
  admitted(obj: KubeObject, e: EventSpec, now: number): boolean {
    const karpenterKey = e.dedupe ? `${e.reason.toLowerCase()}-${e.dedupe.values.join('-')}` : undefined;
    if (karpenterKey !== undefined && (this.dedupedUntil.get(karpenterKey) ?? 0) > now) return false;
    if (e.limiter && !e.limiter.tryAccept(now)) return false;
    const spamKey = [obj.kind, obj.metadata.namespace ?? '', obj.metadata.name, obj.metadata.uid, obj.apiVersion].join(
      '/',
    );
    const bucket = this.spam.get(spamKey) ?? new TokenBucket(spamQps, spamBurst);
    touchLru(this.spam, spamKey, bucket, maxRecentEvents);
    if (!bucket.tryAccept(now)) return false;
    if (karpenterKey !== undefined)
      this.rememberDedupe(karpenterKey, now + (e.dedupe?.timeoutMs ?? defaultDedupeTimeout), now);
    return true;
  }

  /** Keeps a Karpenter de-duplication key until `until`; like Karpenter's cache it has no size bound, only expiry. */
  private rememberDedupe(key: string, until: number, now: number): void {
    for (const [k, t] of this.dedupedUntil) {
      if (t > now) break;
      this.dedupedUntil.delete(k);
    }
    this.dedupedUntil.delete(key);
    this.dedupedUntil.set(key, until);
  }
}

/** A new Event's name: the object's name, a dot and a unique suffix (flat, as a recorder may keep it long). */
export function eventName(obj: KubeObject, now: number, seq: number): string {
  return [obj.metadata.name ?? 'object', '.', now.toString(16), seq.toString(16)].join('');
}

/** A core/v1 Event about `obj`, first and last seen at `now`, with a count of 1. */
export function eventObject(p: {
  obj: KubeObject;
  e: EventSpec;
  name: string;
  namespace: string;
  now: number;
  component: string;
}): KubeObject {
  const ts = rfc3339(p.now);
  return {
    metadata: { name: p.name, namespace: p.namespace },
    involvedObject: {
      apiVersion: p.obj.apiVersion,
      kind: p.obj.kind,
      name: p.obj.metadata.name,
      namespace: p.obj.metadata.namespace,
      uid: p.obj.metadata.uid,
      resourceVersion: p.obj.metadata.resourceVersion,
    },
    type: p.e.type,
    reason: p.e.reason,
    message: p.e.message,
    count: 1,
    firstTimestamp: ts,
    lastTimestamp: ts,
    source: { component: p.component },
    reportingComponent: p.component,
  } as KubeObject;
}
