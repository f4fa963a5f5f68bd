/**
 * The worker thread that acquires and renews the leader Lease. It has its own event loop and HTTP client, so a long
 * synchronous stretch of the main thread (a solve, a large list) cannot starve the renewals, as client-go's renew
 * goroutine cannot be starved. It publishes each renewal in the shared LeaseState, which the main thread's fence
 * reads, and tells the main thread by message when the Lease is won, lost or released.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { systemClock } from '../clock/index.js';
import { KubeClient, LeaderElector, transportFromKubeConfig } from '../kube/index.js';
import { LeaseState } from './lease-state.js';

/** What the main thread hands the renewer: all of it structured-cloneable. */
export interface RenewerData {
  /** The kubeconfig, as KubeConfig.exportConfig() writes it (token files, CA files and exec plugins included). */
  kubeConfig: string;
  namespace: string;
  name: string;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** The request policy's limits (client-side QPS/burst, timeout, retries); none in tests. */
  policy?: { qps?: number; burst?: number; timeoutMs?: number; maxRetries?: number };
  state: SharedArrayBuffer;
}

/** A message from the renewer to the main thread. */
export type RenewerMessage =
  | { type: 'acquired' }
  | { type: 'held'; holder: string }
  | { type: 'error'; message: string }
  | { type: 'lost'; detail: string }
  | { type: 'released' }
  | { type: 'release-failed'; message: string };

/** A message from the main thread to the renewer. */
export interface RenewerCommand {
  type: 'release';
}

const text = (e: unknown): string => (e instanceof Error ? e.message : String(e));

async function renew(port: MessagePort, d: RenewerData): Promise<void> {
  const post = (m: RenewerMessage): void => port.postMessage(m);
  const kc = new KubeConfig();
  kc.loadFromString(d.kubeConfig);
  const transport = await transportFromKubeConfig(kc, d.policy ? { policy: { ...d.policy, clock: systemClock } } : {});
  const state = new LeaseState(d.state, d.renewDeadlineMs);
  let lastHolder: string | undefined;
  let lastError: string | undefined;
  let renewedAt = 0;
  const elector = new LeaderElector({
    client: new KubeClient(transport),
    clock: systemClock,
    namespace: d.namespace,
    name: d.name,
    identity: d.identity,
    leaseDurationMs: d.leaseDurationMs,
    renewDeadlineMs: d.renewDeadlineMs,
    retryPeriodMs: d.retryPeriodMs,
    onError: (e) => {
      lastError = text(e);
      post({ type: 'error', message: lastError });
    },
    onRenewed: (sentAt) => {
      renewedAt = sentAt;
      lastError = undefined;
      state.renewed(sentAt);
    },
    onHeld: (holder) => {
      if (holder === lastHolder) return;
      lastHolder = holder;
      post({ type: 'held', holder });
    },
  });
  port.on('message', (m: RenewerCommand) => {
    if (m.type !== 'release') return;
    state.set('released');
    elector.release().then(
      () => post({ type: 'released' }),
      (e: unknown) => post({ type: 'release-failed', message: text(e) }),
    );
  });
  if (!(await elector.acquire())) return;
  post({ type: 'acquired' });
  if ((await elector.renewUntilLost()) !== 'lost') return;
  state.set('lost');
  // client-go's reason, "failed to renew lease", with what a user needs to tell a slow API server from a refused renew.
  const since = ((Date.now() - renewedAt) / 1000).toFixed(1);
  const why = lastError ? `the last attempt failed: ${lastError}` : 'no attempt was answered in time';
  post({ type: 'lost', detail: `failed to renew lease: last renewed ${since} s ago; ${why}` });
}

if (parentPort) {
  const port = parentPort;
  renew(port, workerData as RenewerData).catch((e: unknown) => {
    // Without a renewer the Lease cannot be kept: the main thread treats this as a loss.
    new LeaseState((workerData as RenewerData).state, 0).set('lost');
    port.postMessage({ type: 'error', message: text(e) } satisfies RenewerMessage);
    port.postMessage({ type: 'lost', detail: `the lease renewer stopped: ${text(e)}` } satisfies RenewerMessage);
  });
}
