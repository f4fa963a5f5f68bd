import type { Clock } from '../clock/index.js';
import { backoffDelay, type Backoff } from './backoff.js';

/** What an instrumented queue reports, for client-go's workqueue metrics (times in wall-clock ms). */
export interface QueueObserver {
  /** A key was queued (not a duplicate). */
  added(): void;
  /** A key was re-queued with back-off after a failure. */
  retried(): void;
  /** A key was handed to a worker after waiting `ms` in the queue. */
  waited(ms: number): void;
}

/**
 * A de-duplicating work queue with per-key exponential back-off, shaped like client-go's: a key is queued at
 * most once; a key added while it is being processed is re-queued when processing ends, so two workers never
 * hold the same key.
 */
export class WorkQueue {
  private readonly queue: string[] = [];
  /** Where the queue starts in `queue`: shift() copies the whole array, and a scale-up queues 150,000 keys. */
  private head = 0;
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly delayed = new Map<string, { at: number; cancel: () => void }>();
  private waiters: Array<(key: string | undefined) => void> = [];
  private shuttingDown = false;
  private observer: QueueObserver | undefined;
  /** When each queued key was queued, while observed (wall-clock ms). */
  private readonly queuedAt = new Map<string, number>();

  /** Creates an empty queue. */
  constructor(
    private readonly clock: Clock,
    private readonly backoff: Backoff = { base: 5, max: 1000 * 1000 },
  ) {}

  /** Queues a key now (no-op if it is already queued). */
  add(key: string): void {
    if (this.shuttingDown) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.observer?.added();
    const waiter = this.waiters.shift();
    if (waiter) {
      this.queued.delete(key);
      this.processing.add(key);
      this.observer?.waited(0);
      waiter(key);
    } else {
      this.queue.push(key);
      if (this.observer) this.queuedAt.set(key, performance.now());
    }
  }

  /** Reports adds, retries and waits to `observer` from now on. */
  instrument(observer: QueueObserver): void {
    this.observer = observer;
  }

  /** Queues a key after `ms`; an earlier pending delay for the same key wins. */
  addAfter(key: string, ms: number): void {
    // A worker finishing its last key after shutDown must not leave a timer that keeps the process alive.
    if (this.shuttingDown) return;
    if (ms <= 0) return this.add(key);
    const at = this.clock.now() + ms;
    const existing = this.delayed.get(key);
    if (existing && existing.at <= at) return;
    existing?.cancel();
    const cancel = this.clock.setTimer(ms, () => {
      this.delayed.delete(key);
      this.add(key);
    });
    this.delayed.set(key, { at, cancel });
  }

  /** Queues a key after its back-off delay, which doubles with each consecutive call. */
  addRateLimited(key: string): void {
    const n = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, n);
    this.observer?.retried();
    this.addAfter(key, backoffDelay(this.backoff, n));
  }

  /** Resets a key's back-off. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** How many times a key has been rate-limited in a row. */
  retries(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** Waits for the next key; undefined once the queue shuts down. */
  get(): Promise<string | undefined> {
    const key = this.head < this.queue.length ? this.queue[this.head++] : undefined;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    if (key !== undefined) {
      this.queued.delete(key);
      this.processing.add(key);
      const at = this.queuedAt.get(key);
      if (at !== undefined) {
        this.queuedAt.delete(key);
        this.observer?.waited(performance.now() - at);
      }
      return Promise.resolve(key);
    }
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Marks a key's processing finished; re-queues it if it was added meanwhile. */
  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.delete(key)) this.add(key);
  }

  /** Keys waiting (not counting delayed ones). */
  get length(): number {
    return this.queue.length - this.head;
  }

  /** True when nothing is queued, delayed or being processed. */
  idle(): boolean {
    return this.length === 0 && this.processing.size === 0 && this.delayed.size === 0;
  }

  /** Stops handing out keys; waiting getters receive undefined. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const d of this.delayed.values()) d.cancel();
    this.delayed.clear();
    for (const w of this.waiters.splice(0)) w(undefined);
  }
}
