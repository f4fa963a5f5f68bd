/** A work queue with its workers, as each agent runs one. */
import { runReconciler, WorkQueue, type ReconcileResult } from '../../kube/index.js';
import type { AgentContext } from './agent.js';

/** A running queue. */
export interface QueueRunner {
  queue: WorkQueue;
  stop(): void;
}

/** Starts `workers` loops reconciling keys of a new queue; errors back off per key and go to ctx.onError. */
export function startQueue(
  ctx: AgentContext,
  spec: { name: string; reconcile: (key: string) => Promise<ReconcileResult | void>; workers?: number },
): QueueRunner {
  const queue = new WorkQueue(ctx.clock, { base: 200, max: 30_000 });
  void runReconciler({
    queue,
    reconciler: { name: spec.name, reconcile: spec.reconcile },
    workers: spec.workers ?? 1,
    onError: (_key, e) => ctx.onError?.(spec.name, e),
  });
  return { queue, stop: () => queue.shutDown() };
}
