import { rfc3339, type Clock } from '../clock/index.js';
import type { KubeClient } from './client.js';
import { isNotFound } from './errors.js';
import { StringInterner } from './interned-strings.js';
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
/** client-go's events.k8s.io broadcaster: a series silent this long is finished (checked this often). */
const seriesFinishMs = 6 * 60_000;
/** client-go's events.k8s.io broadcaster: how often the series still cached are written (its heartbeat). */
const seriesRefreshMs = 30 * 60_000;
/**
 * Series cached at once. client-go bounds its cache only by time (6 minutes after a series' last occurrence); the
 * 4096 of the correlator would end every series of a scale-up with more pending pods than that, each retry of each
 * pod then creating another Event. This bound is above the playground's largest runs (150,000 pods); callers end
 * the series that cannot recur (see finish).
 */
const maxSeries = 1 << 18;

interface Recorded {
  name: string;
  namespace: string;
  count: number;
  at: number;
}

/**
 * One cached series: what the Event is made from, its occurrences, and the count the API server has. Kept flat (a
 * scale-up caches one series per pending pod and another per scheduled pod): neither the Event nor the object it
 * is about is kept, only the fields the Event repeats.
 */
interface Series {
  apiVersion: string | undefined;
  kind: string | undefined;
  objectName: string | undefined;
  objectNamespace: string | undefined;
  uid: string | undefined;
  resourceVersion: string | undefined;
  type: EventSpec['type'];
  reason: string;
  message: string;
  firstAt: number;
  name: string;
  namespace: string;
  count: number;
  lastObserved: number;
  written: number;
}

/** Options of the recorder. */
export interface EventRecorderOptions {
  client: KubeClient;
  clock: Clock;
  component: string;
  /** Identical events within this window bump the count of the first instead of adding another (ms). */
  dedupeWindow?: number;
  /** client-go's events.k8s.io broadcaster behaviour (used by kube-scheduler): repeats of an event, whatever its message, form one series. */
  series?: boolean;
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
 *
 * With `series`, it behaves as client-go's events.k8s.io broadcaster instead: an event with the type and reason of
 * one recorded about the same object less than 6 minutes before is a repeat, whatever its message. The second
 * occurrence writes `count: 2` (and `series`); later ones are only counted, and written by a heartbeat every 30
 * minutes and when the series ends (6 minutes without a repeat). The Event keeps its first message. The spam filter
 * and Karpenter's de-duplication apply to every occurrence, as without `series`. `stop()` ends the heartbeat.
 */
export class EventRecorder {
  private readonly recent = new Map<string, Recorded>();
  private readonly spam = new Map<string, TokenBucket>();
  private readonly dedupedUntil = new Map<string, number>();
  private seq = 0;
  private readonly series = new Map<string, Series>();
  /** Series messages, kept once: the pods failing in one scheduling cycle repeat one message. */
  private readonly messages = new StringInterner(1024);
  private cancelHeartbeat: (() => void) | undefined;
  /** When the heartbeat last wrote the series (or started); unset while none are cached. */
  private refreshedAt: number | undefined;

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

  /**
   * Ends the object's series of these reasons now, as the heartbeat would once they had been silent for 6 minutes:
   * a count the API server does not have is written, and the cache entry goes. For series that cannot recur, such
   * as a bound pod's scheduling events: a scale-up would otherwise cache two per pod for 6 minutes.
   */
  async finish(obj: KubeObject, specs: ReadonlyArray<Pick<EventSpec, 'type' | 'reason'>>): Promise<void> {
    for (const e of specs) {
      const key = seriesKey(obj, e);
      const s = this.series.get(key);
      if (!s) continue;
      this.series.delete(key);
      if (s.count === s.written) continue;
      try {
        await this.writeSeries(s);
      } catch (err) {
        this.opts.onError?.(err);
      }
    }
  }

  /** Stops the series heartbeat; counts not yet written stay unwritten. */
  stop(): void {
    this.cancelHeartbeat?.();
    this.cancelHeartbeat = undefined;
  }

  /** Whether the event gets written at all: Karpenter's de-duplication and limiter, then client-go's spam filter. */
  private admitted(obj: KubeObject, e: EventSpec, now: number): boolean {
    const karpenterKey = e.dedupe ? `${e.reason.toLowerCase()}-${e.dedupe.values.join('-')}` : undefined;
    if (karpenterKey !== undefined && (this.dedupedUntil.get(karpenterKey) ?? 0) > now) return false;
    if (e.limiter && !e.limiter.tryAccept(now)) return false;
    const spamKey = [obj.kind, obj.metadata.namespace ?? '', obj.metadata.name, obj.metadata.uid, obj.apiVersion].join(
      '/',
    );
    const bucket = this.spam.get(spamKey) ?? new TokenBucket(spamQps, spamBurst);
    touch(this.spam, spamKey, bucket, maxRecent);
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

  private async write(obj: KubeObject, e: EventSpec): Promise<void> {
    const now = this.opts.clock.now();
    if (!this.admitted(obj, e, now)) return;
    if (this.opts.series) {
      await this.occur(obj, e, now);
      return;
    }
    const dedupeKey = [
      obj.kind,
      obj.metadata.namespace ?? '',
      obj.metadata.name,
      obj.metadata.uid,
      e.type,
      e.reason,
      e.message,
    ].join('/');
    const prev = this.recent.get(dedupeKey);
    const window = this.opts.dedupeWindow ?? 10 * 60_000;
    if (prev && now - prev.at < window) {
      prev.count++;
      prev.at = now;
      // Re-inserted so the map stays in least-recently-used order for prune().
      this.recent.delete(dedupeKey);
      this.recent.set(dedupeKey, prev);
      try {
        await this.opts.client.patch(
          Resources.events,
          { name: prev.name, namespace: prev.namespace },
          { count: prev.count, lastTimestamp: rfc3339(now) },
        );
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    this.prune(now, window);
    this.recent.delete(dedupeKey);
    const namespace = obj.metadata.namespace ?? 'default';
    const name = eventName(obj, now, this.seq++);
    await this.opts.client.create(
      Resources.events,
      eventObject({ obj, e, name, namespace, now, component: this.opts.component }),
    );
    this.recent.set(dedupeKey, { name, namespace, count: 1, at: now });
  }

  /**
   * One occurrence of a series event. As client-go, the message is not part of the key, and the cache entry exists
   * before the Event is created, so a repeat meanwhile counts on it.
   * https://github.com/kubernetes/client-go/blob/master/tools/events/event_broadcaster.go (recordToSink)
   */
  private async occur(obj: KubeObject, e: EventSpec, now: number): Promise<void> {
    const key = seriesKey(obj, e);
    const cached = this.series.get(key);
    if (cached) {
      cached.count++;
      cached.lastObserved = now;
      touch(this.series, key, cached, maxSeries);
      if (cached.count === 2) await this.writeSeries(cached);
      return;
    }
    const namespace = obj.metadata.namespace ?? 'default';
    const name = eventName(obj, now, this.seq++);
    const m = obj.metadata;
    const entry: Series = {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      objectName: m.name,
      objectNamespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      type: e.type,
      reason: e.reason,
      // A message naming its object ("Successfully assigned default/web-1 to …") is never shared: kept out of the table.
      message: m.name && e.message.includes(m.name) ? e.message : this.messages.intern(e.message),
      firstAt: now,
      name,
      namespace,
      count: 1,
      lastObserved: now,
      written: 1,
    };
    touch(this.series, key, entry, maxSeries);
    this.armHeartbeat(now);
    try {
      await this.opts.client.create(Resources.events, this.seriesEvent(entry));
    } catch (err) {
      // Not recorded: the next occurrence tries to create it again.
      if (this.series.get(key) === entry) this.series.delete(key);
      throw err;
    }
  }

  /** The Event of a series as first created. */
  private seriesEvent(s: Series): KubeObject {
    const obj = {
      apiVersion: s.apiVersion,
      kind: s.kind,
      metadata: { name: s.objectName, namespace: s.objectNamespace, uid: s.uid, resourceVersion: s.resourceVersion },
    } as KubeObject;
    return eventObject({
      obj,
      e: s,
      name: s.name,
      namespace: s.namespace,
      now: s.firstAt,
      component: this.opts.component,
    });
  }

  /** Writes a series' count, creating the Event again if it is gone (as client-go does). */
  private async writeSeries(s: Series): Promise<void> {
    const count = s.count;
    const fields = {
      count,
      lastTimestamp: rfc3339(s.lastObserved),
      series: { count, lastObservedTime: microTime(s.lastObserved) },
    };
    try {
      await this.opts.client.patch(Resources.events, { name: s.name, namespace: s.namespace }, fields);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await this.opts.client.create(Resources.events, { ...this.seriesEvent(s), ...fields });
    }
    s.written = Math.max(s.written, count);
  }

  /** Runs the heartbeat every 6 minutes while series are cached (client-go runs finishSeries that often). */
  private armHeartbeat(now: number): void {
    if (this.cancelHeartbeat) return;
    this.refreshedAt ??= now;
    this.cancelHeartbeat = this.opts.clock.setTimer(seriesFinishMs, () => {
      this.cancelHeartbeat = undefined;
      void this.heartbeat();
    });
  }

  /**
   * client-go's finishSeries and refreshExistingEventSeries: series silent for 6 minutes are written a last time and
   * dropped, and every 30 minutes the others are written. A series whose count the API server already has is not
   * written again: the write would change nothing a reader sees.
   */
  private async heartbeat(): Promise<void> {
    const now = this.opts.clock.now();
    const refresh = now - (this.refreshedAt ?? now) >= seriesRefreshMs;
    if (refresh) this.refreshedAt = now;
    const due: Series[] = [];
    for (const [key, s] of this.series) {
      const finished = now - s.lastObserved > seriesFinishMs;
      if (finished) this.series.delete(key);
      if (s.count !== s.written && (finished || refresh)) due.push(s);
    }
    if (this.series.size > 0) this.armHeartbeat(now);
    else this.refreshedAt = undefined;
    for (const s of due) {
      try {
        await this.writeSeries(s);
      } catch (err) {
        this.opts.onError?.(err);
      }
    }
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

/** The series cache key: the object and the event's type and reason (client-go's isomorphic key without the message). */
function seriesKey(obj: KubeObject, e: Pick<EventSpec, 'type' | 'reason'>): string {
  // A uid names one object: the key is kept short (a scale-up caches one per pending pod), and flat (join) rather
  // than a template's cons string.
  const uid = obj.metadata.uid;
  if (uid) return [uid, e.type, e.reason].join('/');
  return [obj.kind, obj.metadata.namespace ?? '', obj.metadata.name, '', e.type, e.reason].join('/');
}

/** A new Event's name: the object's name, a dot and a unique suffix (flat, as it is kept in the series cache). */
function eventName(obj: KubeObject, now: number, seq: number): string {
  return [obj.metadata.name ?? 'object', '.', now.toString(16), seq.toString(16)].join('');
}

/** A MicroTime as Kubernetes writes it (RFC 3339 with microseconds), the type of `series.lastObservedTime`. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '000Z');
}

function eventObject(p: {
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
