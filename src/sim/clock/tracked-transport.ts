/** A Transport wrapper that tells the SimClock when API work is in flight, so time never jumps mid-request. */
import type { Transport } from '../../kube/index.js';
import type { SimClock } from './sim-clock.js';

/**
 * Wraps `inner` so every buffered request counts as busy on `clock` and every watch line as activity. Watch
 * streams themselves are long-lived and do not hold time back.
 */
export function trackTransport(inner: Transport, clock: SimClock): Transport {
  return {
    request: (req) => clock.busy(inner.request(req)),
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
