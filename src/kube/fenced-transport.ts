import type { Transport } from './transport.js';

/** The error a fenced write fails with. */
export class NotLeaderError extends Error {
  readonly kind = 'NotLeaderError' as const;
}

/**
 * A transport that refuses every write while `mayWrite()` is false: a replica that does not (or no longer) hold
 * the leader Lease reads but never writes, even when its process was paused past the renew deadline and its
 * controllers wake up before its elector notices.
 */
export function fencedTransport(inner: Transport, mayWrite: () => boolean): Transport {
  return {
    request: (req) =>
      req.method === 'GET' || mayWrite()
        ? inner.request(req)
        : Promise.reject(
            new NotLeaderError(`${req.method} ${req.path}: refused, this replica does not hold the leader lease`),
          ),
    stream: (req) => inner.stream(req),
  };
}
