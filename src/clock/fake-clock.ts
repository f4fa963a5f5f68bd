import type { Clock } from './clock.js';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

/** A clock that moves only when told to; timers fire in time order as it advances. */
export class FakeClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: Timer[] = [];

  /** Starts at `start` milliseconds since the epoch. */
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  /** The current fake time. */
  now(): number {
    return this.current;
  }

  /** Schedules `fn` at now + ms. */
  setTimer(ms: number, fn: () => void): () => void {
    const timer: Timer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Moves time forward by `ms`, firing due timers in order (timers they set that fall due also fire). */
  advance(ms: number): void {
    const target = this.current + ms;
    for (let next = this.nextDue(target); next; next = this.nextDue(target)) {
      this.timers = this.timers.filter((t) => t !== next);
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.current = target;
  }

  /** Jumps to the earliest pending timer and fires it; false when none is pending. */
  jumpToNext(): boolean {
    const first = this.nextDue(Number.POSITIVE_INFINITY);
    if (!first) return false;
    this.advance(first.at - this.current);
    return true;
  }

  /** How many timers are pending. */
  pending(): number {
    return this.timers.length;
  }

  private nextDue(limit: number): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) {
      if (t.at > limit) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  }
}
