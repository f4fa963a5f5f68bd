/** A Transport wrapper that tells the SimClock when API work is in flight, so time never jumps mid-request. */
import type { Transport } from '../../kube/index.js';
import type { SimClock } from './sim-clock.js';

/** The buffered requests a tracked transport has in flight: what simulated time is waiting on, when it stalls. */
export class RequestsInFlight {
  private readonly open = new Map<number, { what: string; sinceWallMs: number }>();
  private nextId = 0;

  /** Counts `work` as open under `what` until it settles. */
  async track<T>(what: string, work: Promise<T>): Promise<T> {
    const id = this.nextId++;
    this.open.set(id, { what, sinceWallMs: performance.now() });
    try {
      return await work;
    } finally {
      this.open.delete(id);
    }
  }

  /** The open requests, oldest first, each with how long it has been open (wall seconds). */
  list(): string[] {
    const now = performance.now();
    return [...this.open.values()].map((r) => `${r.what} (${((now - r.sinceWallMs) / 1000).toFixed(0)} s)`);
  }
}

/**
 * Wraps `inner` so every buffered request counts as busy on `clock` (and, if given, is listed in `inFlight`) and
 * every watch line as activity. Watch streams themselves are long-lived and do not hold time back.
 */
export function trackTransport(inner: Transport, clock: SimClock, inFlight?: RequestsInFlight): Transport {
  return {
    request: (req) =>
      clock.busy(inFlight ? inFlight.track(`${req.method} ${req.path}`, inner.request(req)) : inner.request(req)),
    stream: (req) =>
      inner.stream({
        ...req,
        onLine: (line) => {
          clock.touch();
          req.onLine(line);
        },
      }),
  };
}
