/**
 * The reconcile a log line was written in: each reconcile runs in its own async context with a fresh
 * `reconcileID` (controller-runtime's), which the logger adds to every line written within it, however deep.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** Log fields of the reconcile in progress. */
export interface ReconcileFields {
  reconcileID: string;
}

/** Carries a reconcile's fields through its awaits; owned by the process that creates the logger. */
export class ReconcileContext {
  private readonly storage = new AsyncLocalStorage<ReconcileFields>();

  /** Runs one reconcile under a new reconcileID. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return this.storage.run({ reconcileID: randomUUID() }, fn);
  }

  /** The fields of the reconcile in progress, or none outside of one (the logger's mixin). */
  fields(): Partial<ReconcileFields> {
    return this.storage.getStore() ?? {};
  }
}
