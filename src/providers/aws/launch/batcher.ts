/**
 * Merges concurrent identical requests into one call (Karpenter batches CreateFleet and DescribeInstances
 * the same way), so a burst of NodeClaims is a handful of API calls rather than a storm.
 */
import type { Clock } from '../../../clock/index.js';

interface Waiter<Req, Res> {
  request: Req;
  resolve: (r: Res) => void;
  reject: (e: unknown) => void;
}

/** Options of a batcher: how to group, how to run one batch, and how long to wait for company. */
export interface BatcherOptions<Req, Res> {
  /** Requests with the same key are executed together. */
  key: (r: Req) => string;
  /** Runs one batch; returns one result per request, in order. */
  run: (requests: Req[]) => Promise<Res[]>;
  clock: Clock;
  /** How long (clock time) a batch waits for more requests; 0 means until the current turn of the event loop ends. */
  windowMs: number;
  /** Most requests in one batch. */
  maxSize: number;
}

/** A request batcher. */
export class Batcher<Req, Res> {
  private readonly o: BatcherOptions<Req, Res>;
  private readonly pending = new Map<string, Array<Waiter<Req, Res>>>();

  constructor(options: BatcherOptions<Req, Res>) {
    this.o = options;
  }

  /** Adds a request to its batch; resolves with its own result. */
  submit(request: Req): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      const key = this.o.key(request);
      const batch = this.pending.get(key);
      if (batch) {
        batch.push({ request, resolve, reject });
        if (batch.length >= this.o.maxSize) this.flush(key);
        return;
      }
      this.pending.set(key, [{ request, resolve, reject }]);
      // Only the trigger is a macrotask; time itself comes from the injected clock when a window is set.
      if (this.o.windowMs > 0) this.o.clock.setTimer(this.o.windowMs, () => this.flush(key));
      else setImmediate(() => this.flush(key));
    });
  }

  private flush(key: string): void {
    const batch = this.pending.get(key);
    if (!batch) return;
    this.pending.delete(key);
    this.o
      .run(batch.map((w) => w.request))
      .then((results) => batch.forEach((w, i) => w.resolve(results[i] as Res)))
      .catch((e: unknown) => batch.forEach((w) => w.reject(e)));
  }
}
