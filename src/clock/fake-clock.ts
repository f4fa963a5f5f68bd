import type { Clock } from './clock.js';
import { TimerHeap } from './timer-heap.js';

/**
 * A clock that moves only when told to; timers fire in time order as it advances (those due at one instant in the
 * order they were set, as on the playground's SimClock, which keeps its timers the same way).
 */
export class FakeClock implements Clock {
  private current: number;
  private readonly timers = new TimerHeap();

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
    const timer = this.timers.push(this.current + Math.max(0, ms), fn);
    return () => this.timers.cancel(timer);
  }

  /** Moves time forward by `ms`, firing due timers in order (timers they set that fall due also fire). */
  advance(ms: number): void {
    const target = this.current + ms;
    for (let next = this.timers.peek(); next && next.at <= target; next = this.timers.peek()) {
      this.timers.remove(next);
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.current = target;
  }

  /** Jumps to the earliest pending timer and fires it; false when none is pending. */
  jumpToNext(): boolean {
    const first = this.timers.peek();
    if (!first) return false;
    this.advance(first.at - this.current);
    return true;
  }

  /** How many timers are pending. */
  pending(): number {
    return this.timers.size;
  }
}
