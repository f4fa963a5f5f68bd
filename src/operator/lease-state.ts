/**
 * The leader Lease's state, shared between the thread that renews it and the main thread that writes: a
 * SharedArrayBuffer read and written with Atomics, so the main thread's fence checks it synchronously, however
 * long the main thread was busy, without waiting for a message from the renewer.
 */

/** Where the elector stands. */
export type LeasePhase = 'acquiring' | 'leading' | 'lost' | 'released';

const phases: readonly LeasePhase[] = ['acquiring', 'leading', 'lost', 'released'];

/** Slots of the shared array. */
const renewedAtSlot = 0;
const phaseSlot = 1;

/** A view of the shared Lease state; both threads build one on the same buffer. */
export class LeaseState {
  private readonly cells: BigInt64Array;

  /** A view on `buffer` (from `LeaseState.buffer()`), shared with the other thread. */
  constructor(
    readonly buffer: SharedArrayBuffer,
    private readonly renewDeadlineMs: number,
  ) {
    this.cells = new BigInt64Array(buffer);
  }

  /** A new buffer for the state: acquiring, never renewed. */
  static buffer(): SharedArrayBuffer {
    return new SharedArrayBuffer(2 * BigInt64Array.BYTES_PER_ELEMENT);
  }

  /** Records a successful acquire or renew whose request was sent at `sentAt` (epoch ms). */
  renewed(sentAt: number): void {
    Atomics.store(this.cells, renewedAtSlot, BigInt(Math.floor(sentAt)));
    Atomics.compareExchange(
      this.cells,
      phaseSlot,
      BigInt(phases.indexOf('acquiring')),
      BigInt(phases.indexOf('leading')),
    );
  }

  /** Moves to `phase`; a lost or released lease never leads again in this process. */
  set(phase: 'lost' | 'released'): void {
    Atomics.store(this.cells, phaseSlot, BigInt(phases.indexOf(phase)));
  }

  /** The current phase. */
  phase(): LeasePhase {
    return phases[Number(Atomics.load(this.cells, phaseSlot))] ?? 'lost';
  }

  /**
   * True while writes are allowed: leading, and the last renew was sent less than a renew deadline ago. Others take
   * the Lease only a lease duration after they saw that renew, so the margin keeps two leaders from writing.
   */
  leading(now: number): boolean {
    return this.phase() === 'leading' && now - Number(Atomics.load(this.cells, renewedAtSlot)) < this.renewDeadlineMs;
  }
}
