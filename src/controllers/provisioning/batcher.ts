import type { Clock } from '../../clock/index.js';

/**
 * Karpenter's batching window: the first trigger opens a batch; each further trigger extends it by the idle
 * duration, but never past the max duration from the first. Then `fire` runs once for the whole batch.
 */
export class Batcher {
  private openedAt: number | undefined;
  private cancel: (() => void) | undefined;

  /** `idleMs` and `maxMs` are BATCH_IDLE_DURATION and BATCH_MAX_DURATION. */
  constructor(
    private readonly clock: Clock,
    private readonly window: { idleMs: number; maxMs: number },
    private readonly fire: () => void,
  ) {}

  /** Opens or extends the current batch. */
  trigger(): void {
    const now = this.clock.now();
    this.openedAt ??= now;
    const delay = Math.max(0, Math.min(this.window.idleMs, this.openedAt + this.window.maxMs - now));
    this.cancel?.();
    this.cancel = this.clock.setTimer(delay, () => {
      this.openedAt = undefined;
      this.cancel = undefined;
      this.fire();
    });
  }

  /** When the open batch started, if one is open. */
  get batchStart(): number | undefined {
    return this.openedAt;
  }

  /** Drops an open batch without firing. */
  stop(): void {
    this.cancel?.();
    this.cancel = undefined;
    this.openedAt = undefined;
  }
}
