import type { WorkQueue } from './work-queue.js';

/** What a reconcile asks for next: nothing, or another pass after `requeueAfter` ms. */
export interface ReconcileResult {
  requeueAfter?: number;
}

/** A controller's reconcile function for one key; throwing requeues the key with back-off. */
export interface Reconciler {
  /** The controller's name, the dotted form of its folder (e.g. `nodeclaim.lifecycle`). */
  readonly name: string;
  /** Brings the object under `key` toward its desired state. */
  reconcile(key: string): Promise<ReconcileResult | void>;
}

/** How a reconcile ended, as controller-runtime's `controller_runtime_reconcile_total{result}` says it. */
export type ReconcileOutcome = 'success' | 'error' | 'requeue_after';

/** What an instrumented reconcile loop reports (wall-clock ms). */
export interface ReconcileObserver {
  /** A worker took a key. */
  started(): void;
  /** A worker finished a key after `ms`. */
  finished(outcome: ReconcileOutcome, ms: number): void;
}

/** Options of runReconciler. */
export interface RunOptions {
  queue: WorkQueue;
  reconciler: Reconciler;
  workers?: number;
  onError?: (key: string, e: unknown) => void;
  observer?: ReconcileObserver;
  /** Runs each reconcile (e.g. in its own log context); default: as is. */
  around?: <T>(reconcile: () => Promise<T>) => Promise<T>;
}

/** Runs `workers` loops that take keys from the queue and reconcile them until the queue shuts down. */
export async function runReconciler(opts: RunOptions): Promise<void> {
  const workers = Array.from({ length: opts.workers ?? 1 }, () => workerLoop(opts));
  await Promise.all(workers);
}

async function workerLoop({ queue, reconciler, onError, observer, around }: RunOptions): Promise<void> {
  for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
    const start = performance.now();
    let outcome: ReconcileOutcome = 'success';
    observer?.started();
    try {
      const result = await (around ? around(() => reconciler.reconcile(key)) : reconciler.reconcile(key));
      queue.forget(key);
      if (result?.requeueAfter !== undefined) {
        outcome = 'requeue_after';
        queue.addAfter(key, result.requeueAfter);
      }
    } catch (e) {
      outcome = 'error';
      onError?.(key, e);
      queue.addRateLimited(key);
    } finally {
      queue.done(key);
      observer?.finished(outcome, performance.now() - start);
    }
  }
}
