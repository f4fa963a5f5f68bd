/**
 * The playground's clock: simulated time that jumps straight to the next timer once every agent is idle, or
 * runs at a speed factor of wall time. "Idle" means no API request in flight (see trackTransport) and no
 * activity for a short settle window of wall time, so the watch events a write caused have been delivered
 * and handled before time moves on. Timers due at the same instant fire in the order they were set, so a run
 * is reproducible for a seed.
 */
import type { Clock } from '../../clock/index.js';
import { TimerHeap } from '../../clock/timer-heap.js';

/** Construction options of a SimClock. */
export interface SimClockOptions {
  /** Simulated start, ms since the epoch (default 2026-01-01T00:00:00Z). */
  start?: number;
  /** Wall-clock quiet time (ms) that counts as "everyone is idle" (default 4). */
  settleMs?: number;
}

/** Options of run(): how simulated time moves while the playground runs freely. */
export interface RunOptions {
  /** Simulated ms per wall ms (default 1). */
  speed?: number;
  /** Also jump to the next timer whenever everyone is idle (default true). */
  jumpWhenIdle?: boolean;
  /** Wall ms between ticks (default 10). */
  tickMs?: number;
}

function realDelay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Simulated time shared by the world and the controllers; see the module comment. */
export class SimClock implements Clock {
  private current: number;
  private readonly timers = new TimerHeap();
  private readonly settleMs: number;
  private inFlight = 0;
  private lastActivity = performance.now();
  private touches = 0;
  private driving = false;

  /** Starts at `opts.start`. */
  constructor(opts: SimClockOptions = {}) {
    this.current = opts.start ?? Date.UTC(2026, 0, 1);
    this.settleMs = opts.settleMs ?? 4;
  }

  /** The current simulated time. */
  now(): number {
    return this.current;
  }

  /** Schedules `fn` at now + ms of simulated time. */
  setTimer(ms: number, fn: () => void): () => void {
    this.touch();
    const timer = this.timers.push(this.current + Math.max(0, ms), fn);
    return () => this.timers.cancel(timer);
  }

  /** How many timers are pending. */
  pending(): number {
    return this.timers.size;
  }

  /** When the earliest pending timer is due, if any. */
  nextDue(): number | undefined {
    return this.timers.peek()?.at;
  }

  /** Notes that something happened (a watch event arrived), which postpones the next idle jump. */
  touch(): void {
    this.lastActivity = performance.now();
    this.touches++;
  }

  /** What holds time back, for saying why it stalls: work in flight, wall ms since the last activity, timers. */
  state(): { inFlight: number; quietMs: number; activity: number; timers: number; nextDue?: number } {
    return {
      inFlight: this.inFlight,
      quietMs: performance.now() - this.lastActivity,
      activity: this.touches,
      timers: this.timers.size,
      nextDue: this.timers.peek()?.at,
    };
  }

  /** Counts `work` as in flight until it settles: time does not jump meanwhile. */
  async busy<T>(work: Promise<T>): Promise<T> {
    this.inFlight++;
    this.touch();
    try {
      return await work;
    } finally {
      this.inFlight--;
      this.touch();
    }
  }

  /** Resolves once nothing is in flight and nothing has happened for the settle window. */
  async idle(): Promise<void> {
    for (;;) {
      await nextTurn();
      if (this.inFlight > 0) {
        await realDelay(1);
        continue;
      }
      const quiet = performance.now() - this.lastActivity;
      if (quiet >= this.settleMs) return;
      await realDelay(Math.max(1, this.settleMs - quiet));
    }
  }

  /**
   * Moves simulated time forward by `ms`, event-driven: waits until everyone is idle, fires the next due
   * timer, and repeats; then sets the time to the target. Resolves when the target is reached and idle.
   */
  async advance(ms: number): Promise<void> {
    const target = this.current + Math.max(0, ms);
    await this.idle();
    for (let next = this.timers.peek(); next && next.at <= target; next = this.timers.peek()) {
      this.fireDueAt(next.at);
      await this.idle();
    }
    this.current = Math.max(this.current, target);
    await this.idle();
  }

  /**
   * Moves simulated time forward by `ms` at once, as a wall clock that jumps (a suspended VM, an NTP step): every
   * timer that fell due in between fires at the new time, in due order, instead of at its own instant.
   */
  async jump(ms: number): Promise<void> {
    await this.idle();
    this.current += Math.max(0, ms);
    await this.advance(0);
  }

  /** Advances until `done()` holds (checked whenever idle) or `limitMs` of simulated time passed; true if done. */
  async runUntil(done: () => boolean, limitMs: number): Promise<boolean> {
    const target = this.current + limitMs;
    await this.idle();
    while (!done()) {
      const next = this.timers.peek();
      if (!next || next.at > target) {
        this.current = Math.max(this.current, target);
        await this.idle();
        return done();
      }
      this.fireDueAt(next.at);
      await this.idle();
    }
    return true;
  }

  /**
   * Runs freely until the returned stop function is called: simulated time follows wall time times `speed`,
   * and (if asked) jumps to the next timer whenever everyone is idle.
   */
  run(opts: RunOptions = {}): () => void {
    if (this.driving) throw new Error('SimClock is already running');
    this.driving = true;
    const speed = opts.speed ?? 1;
    const tick = opts.tickMs ?? 10;
    void ((opts.jumpWhenIdle ?? true) ? this.runJumping(speed, tick) : this.runAnchored(speed, tick));
    return () => {
      this.driving = false;
    };
  }

  private async runJumping(speed: number, tick: number): Promise<void> {
    let wall = performance.now();
    while (this.driving) {
      await this.idle();
      const nowWall = performance.now();
      const target = this.current + (nowWall - wall) * speed;
      wall = nowWall;
      const next = this.timers.peek();
      if (next) this.fireDueAt(next.at);
      else {
        this.current = target;
        await realDelay(tick);
      }
    }
  }

  // Simulated time stays start + wall elapsed × speed, however many timers fire on the way: at speed 1 a
  // playground started at the host's time keeps the host's time, so kubectl's AGE column reads true.
  private async runAnchored(speed: number, tick: number): Promise<void> {
    const wall0 = performance.now();
    const sim0 = this.current;
    while (this.driving) {
      const target = Math.max(this.current, sim0 + (performance.now() - wall0) * speed);
      const next = this.timers.peek();
      if (next && next.at <= target) {
        this.fireDueAt(next.at);
        await nextTurn();
        continue;
      }
      this.current = target;
      await realDelay(tick);
    }
  }

  /**
   * Fires every timer due at instant `at` (those set before this call, in the order they were set) without
   * waiting for idle in between: they were simultaneous, and one settle window per instant instead of per timer
   * is what keeps a thousand pod starts from costing a thousand settle windows.
   */
  private fireDueAt(at: number): void {
    const limit = this.timers.nextSeq;
    this.current = Math.max(this.current, at);
    this.touch();
    // Timers set while the batch fires (even for this instant) wait for the next idle, as before.
    for (let t = this.timers.peek(); t && t.at === at && t.seq < limit; t = this.timers.peek()) {
      this.timers.remove(t);
      t.fn();
    }
  }
}
