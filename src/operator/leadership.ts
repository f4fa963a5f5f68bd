import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../clock/index.js';
import { LeaderElector, type KubeClient } from '../kube/index.js';
import type { Logger } from '../observability/logger.js';

/** A replica's part in leader election. */
export interface Leadership {
  /** True while this replica may act (and write) as leader. */
  leading(): boolean;
  /** Resolves true once this replica leads, false if it was stopped first. */
  readonly won: Promise<boolean>;
  /** Stops electing and hands the Lease back if held (on SIGTERM, so a standby takes over at once). */
  release(): Promise<void>;
}

/** Options of runLeaderElection. */
export interface LeadershipOptions {
  /** A client that is not fenced by this leadership: it writes the Lease. */
  client: KubeClient;
  clock: Clock;
  namespace: string;
  name: string;
  log: Logger;
  /** Runs when a held lease is lost (no renew within the renew deadline); the process then stops acting. */
  onLost: () => void;
}

/** Starts electing: acquires the Lease in the background, then renews it until lost or released. */
export function runLeaderElection(o: LeadershipOptions): Leadership {
  // As controller-runtime: the pod's hostname and a random suffix, so a restarted pod is a new holder.
  const identity = `${hostname()}_${randomUUID()}`;
  const lease = `${o.namespace}/${o.name}`;
  const elector = new LeaderElector({
    client: o.client,
    clock: o.clock,
    namespace: o.namespace,
    name: o.name,
    identity,
    onError: (e) => o.log.warn({ lease, err: e }, 'error retrieving or updating lease'),
  });
  o.log.info({ lease, identity }, 'attempting to acquire leader lease');
  const won = elector.acquire().then((ok) => {
    if (ok) {
      o.log.info({ lease, identity }, 'successfully acquired lease');
      void elector.renewUntilLost().then((end) => {
        if (end !== 'lost') return;
        o.log.error({ lease, identity }, 'leader election lost');
        o.onLost();
      });
    }
    return ok;
  });
  return { leading: () => elector.leading(), won, release: () => elector.release() };
}
