import { describe, expect, it, vi } from 'vitest';
import { sleep } from '../../clock/index.js';
import { SimClock } from './sim-clock.js';

describe('SimClock', () => {
  it('jumps through timers in order, waiting for in-flight work before each jump', async () => {
    const clock = new SimClock({ start: 0 });
    const seen: string[] = [];
    clock.setTimer(1000, () => {
      // Work that takes wall time and then sets a timer must finish before time moves on.
      void clock.busy(new Promise<void>((r) => setTimeout(r, 15))).then(() => {
        seen.push(`work@${clock.now()}`);
        clock.setTimer(10, () => seen.push(`after@${clock.now()}`));
      });
    });
    clock.setTimer(1005, () => seen.push(`b@${clock.now()}`));
    await clock.advance(60_000);
    expect(seen).toEqual(['work@1000', 'b@1005', 'after@1010']);
    expect(clock.now()).toBe(60_000);
  });

  it('fires same-instant timers in the order they were set and honours cancellation', async () => {
    const clock = new SimClock({ start: 0 });
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) clock.setTimer(100, () => seen.push(i));
    const cancel = clock.setTimer(50, () => seen.push(-1));
    cancel();
    await clock.advance(100);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(clock.pending()).toBe(0);
  });

  it('fires a whole instant in one go: one settle window, cancellations inside the instant honoured', async () => {
    const clock = new SimClock({ start: 0, settleMs: 20 });
    const seen: string[] = [];
    let cancelLast: () => void = () => undefined;
    clock.setTimer(100, () => {
      seen.push('a');
      cancelLast();
      clock.setTimer(0, () => seen.push('set-during'));
    });
    for (let i = 0; i < 50; i++) clock.setTimer(100, () => seen.push(`b${i}`));
    cancelLast = clock.setTimer(100, () => seen.push('cancelled'));
    const t0 = performance.now();
    await clock.advance(100);
    const wall = performance.now() - t0;
    expect(seen).toEqual(['a', ...Array.from({ length: 50 }, (_, i) => `b${i}`), 'set-during']);
    // 50 timers one settle window (20 ms) apart would take over a second.
    expect(wall).toBeLessThan(500);
  });

  it('runs 15 simulated minutes of 10 s heartbeats in well under a second', async () => {
    const clock = new SimClock({ start: 0, settleMs: 1 });
    let beats = 0;
    const beat = (): void => {
      beats++;
      clock.setTimer(10_000, beat);
    };
    clock.setTimer(10_000, beat);
    const t0 = performance.now();
    await clock.advance(15 * 60_000);
    expect(beats).toBe(90);
    expect(performance.now() - t0).toBeLessThan(1500);
  });

  it('jump fires every overdue timer at the new time, in due order', async () => {
    const clock = new SimClock({ start: 0 });
    const seen: string[] = [];
    clock.setTimer(30_000, () => seen.push(`late@${clock.now()}`));
    clock.setTimer(10_000, () => seen.push(`early@${clock.now()}`));
    clock.setTimer(20 * 60_000 + 1, () => seen.push('future'));
    await clock.jump(20 * 60_000);
    expect(seen).toEqual(['early@1200000', 'late@1200000']);
    expect(clock.now()).toBe(20 * 60_000);
    expect(clock.pending()).toBe(1);
  });

  it('runUntil stops as soon as the condition holds', async () => {
    const clock = new SimClock({ start: 0 });
    let done = false;
    void sleep(clock, 30_000).then(() => (done = true));
    expect(await clock.runUntil(() => done, 60_000)).toBe(true);
    expect(clock.now()).toBe(30_000);
    expect(await clock.runUntil(() => false, 1000)).toBe(false);
    expect(clock.now()).toBe(31_000);
  });

  it('runs freely at a speed factor, jumping when idle', async () => {
    const clock = new SimClock({ start: 0, settleMs: 1 });
    let fired = false;
    clock.setTimer(3_600_000, () => (fired = true));
    const stop = clock.run({ speed: 10 });
    while (!fired) await new Promise((r) => setTimeout(r, 5));
    stop();
    expect(clock.now()).toBeGreaterThanOrEqual(3_600_000);
  });
});

describe('SimClock.run without idle jumps', () => {
  it('keeps simulated time at start + wall time x speed, firing the timers due on the way', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance', 'Date'] });
    try {
      const host = Date.now();
      const clock = new SimClock({ start: host });
      const fired: number[] = [];
      clock.setTimer(5_000, () => fired.push(clock.now() - host));
      clock.setTimer(3_600_000, () => fired.push(clock.now() - host));
      const stop = clock.run({ speed: 1, jumpWhenIdle: false });
      await vi.advanceTimersByTimeAsync(12_000);
      stop();
      // A NodePool created at the start is 12 s old, not an hour: the idle hour-long timer did not pull time ahead.
      expect(clock.now() - host).toBeGreaterThanOrEqual(11_900);
      expect(clock.now() - host).toBeLessThanOrEqual(12_100);
      expect(Math.abs(clock.now() - Date.now())).toBeLessThanOrEqual(100);
      expect(fired).toEqual([5_000]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs ahead of the host at a higher speed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance', 'Date'] });
    try {
      const clock = new SimClock({ start: Date.now() });
      const stop = clock.run({ speed: 10, jumpWhenIdle: false });
      await vi.advanceTimersByTimeAsync(6_000);
      stop();
      expect(clock.now() - Date.now()).toBeGreaterThanOrEqual(53_000);
    } finally {
      vi.useRealTimers();
    }
  });
});
