import type { KubeConfig } from '@kubernetes/client-node';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Worker } from 'node:worker_threads';
import { leaderElectionDefaults } from '../kube/index.js';
import type { Logger } from '../observability/logger.js';
import { LeaseState } from './lease-state.js';
import type { RenewerCommand, RenewerData, RenewerMessage } from './lease-renewer.js';

/** A replica's part in leader election. */
export interface Leadership {
  /** True while this replica may act (and write) as leader; a synchronous check of the shared Lease state. */
  leading(): boolean;
  /** Resolves true once this replica leads, false if it was stopped first. */
  readonly won: Promise<boolean>;
  /** Stops electing and hands the Lease back if held (on SIGTERM, so a standby takes over at once). */
  release(): Promise<void>;
}

/** Options of runLeaderElection. */
export interface LeadershipOptions {
  /** Where the Lease lives; the renewer builds its own client (and rate limiter) from it. */
  kubeConfig: KubeConfig;
  /** The renewer's request limits (client-side QPS/burst, timeout, retries). */
  policy?: RenewerData['policy'];
  namespace: string;
  name: string;
  log: Logger;
  /** client-go's timings unless set (tests shorten them). */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Runs when a held lease is lost (no renew within the renew deadline); the process then stops acting. */
  onLost: () => void;
}

/**
 * The renewer's worker: the built module beside this one, or, when this module runs from the TypeScript sources
 * (the tests), the .ts module through tsx, a devDependency the built package never reaches.
 */
function startRenewer(workerData: RenewerData): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./lease-renewer.js', here), { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./lease-renewer.ts', here).href;
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { eval: true, workerData });
}

/**
 * Starts electing: a worker thread acquires the Lease, then renews it until lost or released, whatever the main
 * thread is doing. `leading()` reads the shared state synchronously: once no renew succeeded within the renew
 * deadline it is false, before any message from the worker could arrive.
 */
export function runLeaderElection(o: LeadershipOptions): Leadership {
  // As controller-runtime: the pod's hostname and a random suffix, so a restarted pod is a new holder.
  const identity = `${hostname()}_${randomUUID()}`;
  const lease = `${o.namespace}/${o.name}`;
  const timings = {
    leaseDurationMs: o.leaseDurationMs ?? leaderElectionDefaults.leaseDurationMs,
    renewDeadlineMs: o.renewDeadlineMs ?? leaderElectionDefaults.renewDeadlineMs,
    retryPeriodMs: o.retryPeriodMs ?? leaderElectionDefaults.retryPeriodMs,
  };
  const state = new LeaseState(LeaseState.buffer(), timings.renewDeadlineMs);
  const worker = startRenewer({
    kubeConfig: o.kubeConfig.exportConfig(),
    namespace: o.namespace,
    name: o.name,
    identity,
    ...timings,
    ...(o.policy ? { policy: o.policy } : {}),
    state: state.buffer,
  });
  o.log.info({ lease, identity }, 'attempting to acquire leader lease');
  let settleWon: (won: boolean) => void = () => undefined;
  const won = new Promise<boolean>((resolve) => (settleWon = resolve));
  let released: (() => void) | undefined;
  let done = false;
  const lost = (detail: string): void => {
    if (done) return;
    done = true;
    state.set('lost');
    settleWon(false);
    o.log.error({ lease, identity, reason: detail }, 'leader election lost');
    void worker.terminate();
    o.onLost();
  };
  worker.on('message', (m: RenewerMessage) => {
    if (m.type === 'error') o.log.warn({ lease, err: { message: m.message } }, 'error retrieving or updating lease');
    else if (m.type === 'held')
      o.log.debug({ lease, holder: m.holder }, 'lock is held by another holder and has not yet expired');
    else if (m.type === 'acquired') {
      o.log.info({ lease, identity }, 'successfully acquired lease');
      settleWon(true);
    } else if (m.type === 'lost') lost(m.detail);
    else {
      if (m.type === 'release-failed') o.log.warn({ lease, err: { message: m.message } }, 'lease not released');
      released?.();
    }
  });
  worker.on('error', (e) => o.log.error({ lease, err: e }, 'lease renewer failed'));
  // A renewer that stopped on its own can neither win nor keep the Lease: the replica stops as on a loss.
  worker.on('exit', (code) => lost(`the lease renewer exited (code ${code})`));
  return {
    leading: () => state.leading(Date.now()),
    won,
    release: async () => {
      if (done) return;
      done = true;
      // The fence closes here, before the Lease is handed back: nothing is written after the standby may take over.
      state.set('released');
      settleWon(false);
      await new Promise<void>((resolve) => {
        released = resolve;
        worker.once('exit', () => resolve());
        worker.postMessage({ type: 'release' } satisfies RenewerCommand);
      });
      await worker.terminate();
    },
  };
}
