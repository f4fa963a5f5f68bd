/** A binary min-heap of timers ordered by due time, then by the order they were set (lazy cancellation). */

/** One pending timer. */
export interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

function before(a: PendingTimer, b: PendingTimer): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/** Timers by (due time, sequence); cancelled ones are dropped when they reach the top. */
export class TimerHeap {
  private readonly heap: PendingTimer[] = [];
  private seq = 0;
  private live = 0;

  /** Live (not cancelled) timers. */
  get size(): number {
    return this.live;
  }

  /** The sequence number the next timer will get (timers set from now on compare greater). */
  get nextSeq(): number {
    return this.seq;
  }

  /** Adds a timer due at `at`. */
  push(at: number, fn: () => void): PendingTimer {
    const timer: PendingTimer = { at, seq: this.seq++, fn, cancelled: false };
    this.heap.push(timer);
    this.up(this.heap.length - 1);
    this.live++;
    return timer;
  }

  /** Cancels a timer (no-op when it already fired or was cancelled). */
  cancel(timer: PendingTimer): void {
    if (timer.cancelled) return;
    timer.cancelled = true;
    this.live--;
  }

  /** The earliest live timer. */
  peek(): PendingTimer | undefined {
    while (this.heap[0]?.cancelled) this.pop();
    return this.heap[0];
  }

  /** Removes `timer`, which must be the one peek() returned. */
  remove(timer: PendingTimer): void {
    if (this.peek() !== timer) throw new Error('TimerHeap.remove: not the earliest timer');
    this.cancel(timer);
    this.pop();
  }

  private pop(): void {
    const last = this.heap.pop();
    if (!last || this.heap.length === 0) return;
    this.heap[0] = last;
    this.down(0);
  }

  private up(i: number): void {
    for (let p = (i - 1) >> 1; i > 0; i = p, p = (i - 1) >> 1) {
      const a = this.heap[i];
      const b = this.heap[p];
      if (!a || !b || !before(a, b)) return;
      this.heap[i] = b;
      this.heap[p] = a;
    }
  }

  private down(i: number): void {
    for (;;) {
      let best = i;
      for (const c of [2 * i + 1, 2 * i + 2]) {
        const cand = this.heap[c];
        const cur = this.heap[best];
        if (cand && cur && before(cand, cur)) best = c;
      }
      if (best === i) return;
      const a = this.heap[i];
      const b = this.heap[best];
      if (!a || !b) return;
      this.heap[i] = b;
      this.heap[best] = a;
      i = best;
    }
  }
}
