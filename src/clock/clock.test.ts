import { afterEach, describe, expect, it, vi } from 'vitest';
import { maxTimeoutMs, systemClock } from './clock.js';

const hour = 3_600_000;

describe('the system clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fires a NodeClaim's 720h expiry after 720 hours, not at once", () => {
    // vitest's timers behave as Node's (a delay past 2^31-1 ms fires after 1 ms), so the old code fails here.
    vi.useFakeTimers();
    const fired: number[] = [];
    const start = Date.now();
    systemClock.setTimer(720 * hour, () => fired.push(Date.now() - start));
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(720 * hour - 2);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([720 * hour]);
  });

  it('cancels a chained timer in any of its steps', () => {
    vi.useFakeTimers();
    let fired = false;
    const cancel = systemClock.setTimer(3 * maxTimeoutMs, () => (fired = true));
    vi.advanceTimersByTime(maxTimeoutMs + 5);
    cancel();
    vi.advanceTimersByTime(3 * maxTimeoutMs);
    expect(fired).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sets a 720h timer on the real timers without a TimeoutOverflowWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(w.name);
    };
    process.on('warning', onWarning);
    try {
      let fired = false;
      const cancel = systemClock.setTimer(720 * hour, () => (fired = true));
      // Node emits the warning on the next tick and would fire the timer after 1 ms: let the event loop turn.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      cancel();
      expect(fired).toBe(false);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
