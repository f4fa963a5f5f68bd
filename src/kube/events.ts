import { rfc3339, type Clock } from '../clock/index.js';
import type { KubeClient } from './client.js';
import { isNotFound } from './errors.js';
import { Resources, type KubeObject } from './resources.js';
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
const maxRecent = 4096;
/** client-go's spam filter: each source may record 25 events about one object, then one every 5 minutes. */
const spamBurst = 25;
const spamQps = 1 / 300;
/** Karpenter's default de-duplication timeout. */
const defaultDedupeTimeout = 2 * 60_000;

interface Recorded {
  name: string;
  namespace: string;
  count: number;
  at: number;
}

/** Options of the recorder. */
export interface EventRecorderOptions {
  client: KubeClient;
  clock: Clock;
  component: string;
  /** Identical events within this window bump the count of the first instead of adding another (ms). */
  dedupeWindow?: number;
  onError?: (e: unknown) => void;
}

/** Sets `key` at the most recent end of an insertion-ordered map used as an LRU, dropping the oldest past `max`. */
function touch<V>(m: Map<string, V>, key: string, value: V, max: number): void {
  m.delete(key);
  m.set(key, value);
  if (m.size <= max) return;
  const oldest = m.keys().next();
  if (!oldest.done) m.delete(oldest.value);
}

/**
 * Records core/v1 Events, de-duplicating identical (object, reason, message) events within a window as the
 * kubelet and controllers do: the first is created, later ones raise its `count` and `lastTimestamp`. As
 * client-go's correlator, it lets one component record at most 25 events about an object, then one every 5
 * minutes; and it applies Karpenter's per-event de-duplication and shared rate limits where an event asks.
 */
export class EventRecorder {
  private readonly recent = new Map<string, Recorded>();
  private readonly spam = new Map<string, TokenBucket>();
  private readonly dedupedUntil = new Map<string, number>();
  private seq = 0;

  /** Creates a recorder writing through the client. */
  constructor(private readonly opts: EventRecorderOptions) {}

  /** Records an event about `obj`; never throws (failures go to onError). */
  async publish(obj: KubeObject, e: EventSpec): Promise<void> {
    try {
      await this.write(obj, e);
    } catch (err) {
      this.opts.onError?.(err);
    }
  }

  /** Whether the event gets written at all: Karpenter's de-duplication and limiter, then client-go's spam filter. */
  private admitted(obj: KubeObject, e: EventSpec, now: number): boolean {
    const karpenterKey = e.dedupe ? `${e.reason.toLowerCase()}-${e.dedupe.values.join('-')}` : undefined;
    if (karpenterKey !== undefined && (this.dedupedUntil.get(karpenterKey) ?? 0) > now) return false;
    if (e.limiter && !e.limiter.tryAccept(now)) return false;
    const spamKey = `${obj.kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}/${obj.metadata.uid}/${obj.apiVersion}`;
    const bucket = this.spam.get(spamKey) ?? new TokenBucket(spamQps, spamBurst);
    touch(this.spam, spamKey, bucket, maxRecent);
    if (!bucket.tryAccept(now)) return false;
    if (karpenterKey !== undefined) this.rememberDedupe(karpenterKey, now + (e.dedupe?.timeoutMs ?? defaultDedupeTimeout), now);
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

  private async write(obj: KubeObject, e: EventSpec): Promise<void> {
    const now = this.opts.clock.now();
    if (!this.admitted(obj, e, now)) return;
    const dedupeKey = `${obj.kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}/${obj.metadata.uid}/${e.type}/${e.reason}/${e.message}`;
    const prev = this.recent.get(dedupeKey);
    const window = this.opts.dedupeWindow ?? 10 * 60_000;
    if (prev && now - prev.at < window) {
      prev.count++;
      prev.at = now;
      // Re-inserted so the map stays in least-recently-used order for prune().
      this.recent.delete(dedupeKey);
      this.recent.set(dedupeKey, prev);
      try {
        await this.opts.client.patch(Resources.events, { name: prev.name, namespace: prev.namespace }, { count: prev.count, lastTimestamp: rfc3339(now) });
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    this.prune(now, window);
    this.recent.delete(dedupeKey);
    const namespace = obj.metadata.namespace ?? 'default';
    const name = `${obj.metadata.name ?? 'object'}.${now.toString(16)}${(this.seq++).toString(16)}`;
    await this.opts.client.create(Resources.events, eventObject({ obj, e, name, namespace, now, component: this.opts.component }));
    this.recent.set(dedupeKey, { name, namespace, count: 1, at: now });
  }

  /**
   * Drops expired entries and, past client-go's 4096-entry LRU size, the least recently used: the map is kept in
   * use order, so this stops at the first live entry instead of scanning them all on every event.
   */
  private prune(now: number, window: number): void {
    for (const [k, v] of this.recent) {
      if (now - v.at < window && this.recent.size < maxRecent) return;
      this.recent.delete(k);
    }
  }
}

function eventObject(p: { obj: KubeObject; e: EventSpec; name: string; namespace: string; now: number; component: string }): KubeObject {
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
