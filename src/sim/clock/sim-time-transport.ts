/**
 * A Transport wrapper for a playground attached to a real cluster: what the playground reads carries the cluster's
 * wall-clock times (wall-clock-fields.ts) on the simulated clock, and what it writes there goes back to wall time.
 * Without it every object the cluster stamps after the start looks older than it is by the simulated clock's
 * head start (an expired node's replacement would expire as it registers). Production has one clock and no need.
 */
import type { Clock } from '../../clock/index.js';
import type { Transport, TransportRequest } from '../../kube/index.js';
import { resourceOf, shiftObject, shiftText } from './wall-clock-fields.js';
import type { WallTimeMap } from './wall-time-map.js';

/** What a sim-time transport maps with. */
export interface SimTimeOptions {
  /** The readings, recorded here at every request, response and watch event. */
  map: WallTimeMap;
  /** The simulated clock. */
  clock: Pick<Clock, 'now'>;
  /** The cluster's wall clock (default Date.now: the cluster runs on this machine). */
  wallNow?: () => number;
}

/** Wraps `inner` so object times read are simulated and times written are wall; see the module comment. */
export function simTimeTransport(inner: Transport, o: SimTimeOptions): Transport {
  const wallNow = o.wallNow ?? Date.now;
  // A reading before each mapping: every time the cluster stamped before a response lies before this reading.
  const mark = (): void => o.map.record(wallNow(), o.clock.now());
  const toSim = (ms: number): number => o.map.toSim(ms);
  const toWall = (ms: number): number => o.map.toWall(ms);
  const outgoing = <R extends TransportRequest>(req: R): R =>
    req.body === undefined ? req : { ...req, body: shiftObject(resourceOf(req.path), req.body, toWall) };
  return {
    request: async (req) => {
      mark();
      const res = await inner.request(outgoing(req));
      mark();
      const body = shiftText(resourceOf(req.path), res.body, toSim);
      return body === undefined ? res : { ...res, body };
    },
    stream: (req) => {
      const resource = resourceOf(req.path);
      return inner.stream({
        ...outgoing(req),
        onLine: (line) => {
          mark();
          req.onLine(shiftText(resource, line, toSim) ?? line);
        },
      });
    },
  };
}
