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

/** Options of runReconciler. */
export interface RunOptions {
  queue: WorkQueue;
  reconciler: Reconciler;
  workers?: number;
  onError?: (key: string, e: unknown) => void;
}

/** Runs `workers` loops that take keys from the queue and reconcile them until the queue shuts down. */
export async function runReconciler(opts: RunOptions): Promise<void> {
  const workers = Array.from({ length: opts.workers ?? 1 }, () => workerLoop(opts));
  await Promise.all(workers);
}

async function workerLoop({ queue, reconciler, onError }: RunOptions): Promise<void> {
  for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
    try {
      const result = await reconciler.reconcile(key);
      queue.forget(key);
      if (result?.requeueAfter !== undefined) queue.addAfter(key, result.requeueAfter);
    } catch (e) {
      onError?.(key, e);
      queue.addRateLimited(key);
    } finally {
      queue.done(key);
    }
  }
}
