/**
 * kube-scheduler's event recording: client-go's events.k8s.io broadcaster, which counts the repeats of an event as
 * one series instead of de-duplicating by message as the core/v1 recorder does.
 */
import { rfc3339, type Clock } from '../../clock/index.js';
import {
  EventAdmission,
  eventName,
  eventObject,
  isNotFound,
  Resources,
  touchLru,
  type EventSpec,
  type KubeClient,
  type KubeObject,
} from '../../kube/index.js';
import { StringInterner } from '../world/interned-strings.js';

/** client-go's events.k8s.io broadcaster: a series silent this long is finished (checked this often). */
const seriesFinishMs = 6 * 60_000;
/** client-go's events.k8s.io broadcaster: how often the series still cached are written (its heartbeat). */
const seriesRefreshMs = 30 * 60_000;
/**
 * Series cached at once. client-go bounds its cache only by time (6 minutes after a series' last occurrence); the
 * 4096 of the correlator would end every series of a scale-up with more pending pods than that, each retry of each
 * pod then creating another Event. This bound is above the playground's largest runs; callers end the series that
 * cannot recur (see finish).
 */
const maxSeries = 1 << 18;

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

/** Options of the series recorder. */
export interface SeriesEventRecorderOptions {
  client: KubeClient;
  clock: Clock;
  component: string;
  onError?: (e: unknown) => void;
}

/**
 * Records Events as client-go's events.k8s.io broadcaster (used by kube-scheduler): an event with the type and
 * reason of one recorded about the same object less than 6 minutes before is a repeat, whatever its message. The
 * second occurrence writes `count: 2` (and `series`); later ones are only counted, and written by a heartbeat every
 * 30 minutes and when the series ends (6 minutes without a repeat). The Event keeps its first message. client-go's
 * spam filter and Karpenter's de-duplication apply to every occurrence, as in the core/v1 recorder. `stop()` ends
 * the heartbeat.
 */
export class SeriesEventRecorder {
  private readonly admission = new EventAdmission();
  private seq = 0;
  private readonly series = new Map<string, Series>();
  /** Series messages, kept once: the pods failing in one scheduling cycle repeat one message. */
  private readonly messages = new StringInterner(1024);
  private cancelHeartbeat: (() => void) | undefined;
  /** When the heartbeat last wrote the series (or started); unset while none are cached. */
  private refreshedAt: number | undefined;

  /** Creates a recorder writing through the client. */
  constructor(private readonly opts: SeriesEventRecorderOptions) {}

  /** Records an occurrence of an event about `obj`; never throws (failures go to onError). */
  async publish(obj: KubeObject, e: EventSpec): Promise<void> {
    try {
      const now = this.opts.clock.now();
      if (this.admission.admitted(obj, e, now)) await this.occur(obj, e, now);
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
      touchLru(this.series, key, cached, maxSeries);
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
    touchLru(this.series, key, entry, maxSeries);
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
}

/** The series cache key: the object and the event's type and reason (client-go's isomorphic key without the message). */
function seriesKey(obj: KubeObject, e: Pick<EventSpec, 'type' | 'reason'>): string {
  // A uid names one object: the key is kept short (a scale-up caches one per pending pod), and flat (join) rather
  // than a template's cons string.
  const uid = obj.metadata.uid;
  if (uid) return [uid, e.type, e.reason].join('/');
  return [obj.kind, obj.metadata.namespace ?? '', obj.metadata.name, '', e.type, e.reason].join('/');
}

/** A MicroTime as Kubernetes writes it (RFC 3339 with microseconds), the type of `series.lastObservedTime`. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '000Z');
}
