import { sleep, type Clock } from '../clock/index.js';
import { backoffDelay, type Backoff } from './backoff.js';
import type { KubeClient } from './client.js';
import { isGone } from './errors.js';
import { ObjectCache, type Indexers } from './object-cache.js';
import { keyOf, type KubeObject, type ResourceType } from './resources.js';
import { watchResource, type WatchEvent } from './watch.js';

/**
 * Changes a listed or watched object in place before it is cached (controller-runtime's cache TransformFunc); the
 * playground's object sharing is one.
 */
export type ObjectTransform = (obj: KubeObject) => void;

/** Callbacks an informer delivers; `update` gets the old and the new object. */
export interface InformerHandlers<T> {
  add?: (obj: T) => void;
  update?: (oldObj: T, newObj: T) => void;
  delete?: (obj: T) => void;
}

/** What an informer watches and how it recovers. */
export interface InformerOptions<T extends KubeObject> {
  client: KubeClient;
  resource: ResourceType<T>;
  clock: Clock;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  indexers?: Indexers<T>;
  /** Back-off after watch failures other than 410; doubles to the max (client-node's: 30 s). */
  backoff?: Backoff;
  /** Re-delivers every cached object as an update this often (ms); 0 turns it off. */
  resyncPeriod?: number;
  /** Page size of the initial list. */
  pageSize?: number;
  onError?: (e: unknown) => void;
  /**
   * Keep `metadata.managedFields` in cached objects (default false: stripped, as controller-runtime's
   * TransformStripManagedFields does — no controller reads them and they are often half an object's size).
   */
  keepManagedFields?: boolean;
  /** Applied to every object before it is cached (not to deleted ones); none by default. */
  transform?: ObjectTransform;
}

/**
 * Lists then watches one resource, keeping an indexed cache. It never gives up: a 410 Gone clears the
 * resourceVersion and re-lists; other failures back off and re-watch; a closed stream re-watches at once.
 */
export class Informer<T extends KubeObject> {
  readonly cache: ObjectCache<T>;
  private readonly handlers: InformerHandlers<T>[] = [];
  private readonly abort = new AbortController();
  private synced = false;
  private started = false;
  private syncWaiters: Array<() => void> = [];
  private resourceVersion: string | undefined;
  private failures = 0;
  /** Cancels the pending resync timer. */
  private cancelResync: (() => void) | undefined;

  /** Creates a stopped informer; call start(). */
  constructor(private readonly opts: InformerOptions<T>) {
    this.cache = new ObjectCache<T>(opts.indexers ?? {});
  }

  /** Registers handlers; objects already cached are delivered as adds. */
  on(h: InformerHandlers<T>): void {
    this.handlers.push(h);
    if (this.synced) for (const o of this.cache.list()) h.add?.(o);
  }

  /** True once the first full list has been cached. */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves when the first list is cached. */
  waitForSync(): Promise<void> {
    return this.synced ? Promise.resolve() : new Promise((r) => this.syncWaiters.push(r));
  }

  /** Starts the list-watch loop in the background; starting a started informer does nothing (it may be shared). */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.run();
    const period = this.opts.resyncPeriod ?? 0;
    if (period <= 0) return;
    // One listener for the whole life of the informer; each period's timer replaces the last one it cancels.
    this.abort.signal.addEventListener('abort', () => this.cancelResync?.(), { once: true });
    this.scheduleResync(period);
  }

  /** Stops watching; the cache keeps its last state. */
  stop(): void {
    this.abort.abort();
  }

  private scheduleResync(period: number): void {
    this.cancelResync = this.opts.clock.setTimer(period, () => {
      if (this.abort.signal.aborted) return;
      for (const o of this.cache.list()) this.emit('update', o, o);
      this.scheduleResync(period);
    });
  }

  private async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        if (this.resourceVersion === undefined) await this.relist();
        await this.watchOnce();
        this.failures = 0;
      } catch (e) {
        if (this.abort.signal.aborted) return;
        if (isGone(e)) {
          this.resourceVersion = undefined;
          continue;
        }
        this.opts.onError?.(e);
        this.failures++;
        await sleep(this.opts.clock, backoffDelay(this.opts.backoff ?? { base: 800, max: 30_000 }, this.failures));
      }
    }
  }

  private async relist(): Promise<void> {
    const { client, resource, namespace, labelSelector, fieldSelector } = this.opts;
    const items: T[] = [];
    let cont: string | undefined;
    let rv: string | undefined;
    do {
      const page = await client.list(resource, {
        namespace,
        labelSelector,
        fieldSelector,
        limit: this.opts.pageSize ?? 500,
        continue: cont,
      });
      items.push(...page.items.map((o) => withKind(resource, o)));
      cont = page.metadata.continue || undefined;
      rv = page.metadata.resourceVersion;
    } while (cont);
    this.replace(items);
    this.resourceVersion = rv;
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  private replace(items: T[]): void {
    const seen = new Set<string>();
    for (const o of items) {
      seen.add(keyOf(o));
      this.apply({ type: 'MODIFIED', object: o });
    }
    for (const old of this.cache.list()) if (!seen.has(keyOf(old))) this.apply({ type: 'DELETED', object: old });
  }

  private watchOnce(): Promise<void> {
    const { client, resource, namespace, labelSelector, fieldSelector } = this.opts;
    return watchResource(
      client,
      resource,
      {
        namespace,
        labelSelector,
        fieldSelector,
        resourceVersion: this.resourceVersion,
        signal: this.abort.signal,
        timeoutSeconds: 300,
      },
      (e) => this.apply(e),
    );
  }

  private apply(e: WatchEvent<T>): void {
    const rv = e.object.metadata.resourceVersion;
    if (e.type === 'BOOKMARK') {
      this.resourceVersion = rv;
      return;
    }
    const obj = withKind(this.opts.resource, e.object);
    // A new metadata object rather than `delete`, which would turn every cached metadata into a slow
    // dictionary-mode object (a hash table of ~800 bytes each).
    if (!this.opts.keepManagedFields && obj.metadata.managedFields) {
      const { managedFields: _stripped, ...metadata } = obj.metadata;
      obj.metadata = metadata;
    }
    if (e.type !== 'DELETED') this.opts.transform?.(obj);
    const old = this.cache.get(keyOf(obj));
    if (e.type === 'DELETED') {
      if (old) {
        this.cache.delete(keyOf(obj));
        this.emit('delete', obj);
      }
    } else if (!old) {
      this.cache.set(obj);
      this.emit('add', obj);
    } else if (old.metadata.resourceVersion !== rv) {
      this.cache.set(obj);
      this.emit('update', old, obj);
    }
    if (rv && this.synced) this.resourceVersion = rv;
  }

  private emit(kind: 'add' | 'delete', obj: T): void;
  private emit(kind: 'update', oldObj: T, newObj: T): void;
  private emit(kind: keyof InformerHandlers<T>, a: T, b?: T): void {
    for (const h of this.handlers) {
      try {
        if (kind === 'update') h.update?.(a, b ?? a);
        else h[kind]?.(a);
      } catch (err) {
        this.opts.onError?.(err);
      }
    }
  }
}

function withKind<T extends KubeObject>(rt: ResourceType<T>, o: T): T {
  if (o.kind) return o;
  return { ...o, apiVersion: rt.group ? `${rt.group}/${rt.version}` : rt.version, kind: rt.kind };
}
