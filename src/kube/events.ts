import { rfc3339, type Clock } from '../clock/index.js';
import type { KubeClient } from './client.js';
import { isNotFound } from './errors.js';
import { EventAdmission, eventName, eventObject, maxRecentEvents, type EventSpec } from './event-objects.js';
import { Resources, type KubeObject } from './resources.js';

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

/**
 * Records core/v1 Events, de-duplicating identical (object, reason, message) events within a window as the
 * kubelet and controllers do: the first is created, later ones raise its `count` and `lastTimestamp`. As
 * client-go's correlator, it lets one component record at most 25 events about an object, then one every 5
 * minutes; and it applies Karpenter's per-event de-duplication and shared rate limits where an event asks.
 */
export class EventRecorder {
  private readonly recent = new Map<string, Recorded>();
  private readonly admission = new EventAdmission();
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

  private async write(obj: KubeObject, e: EventSpec): Promise<void> {
    const now = this.opts.clock.now();
    if (!this.admission.admitted(obj, e, now)) return;
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
   * Drops expired entries and, past client-go's 4096-entry LRU size, the least recently used: the map is kept in
   * use order, so this stops at the first live entry instead of scanning them all on every event.
   */
  private prune(now: number, window: number): void {
    for (const [k, v] of this.recent) {
      if (now - v.at < window && this.recent.size < maxRecentEvents) return;
      this.recent.delete(k);
    }
  }
}
