import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/index.js';
import { Batcher } from './batcher.js';

describe('provisioning batch window', () => {
  const window = { idleMs: 1000, maxMs: 10_000 };

  it('fires once, an idle second after the last pod', () => {
    const clock = new FakeClock();
    const fired: number[] = [];
    const start = clock.now();
    const b = new Batcher(clock, window, () => fired.push(clock.now() - start));
    b.trigger();
    clock.advance(600);
    b.trigger();
    clock.advance(600);
    expect(fired).toEqual([]);
    clock.advance(400);
    expect(fired).toEqual([1600]);
  });

  it('never holds a batch open longer than the max window, even with pods arriving all the time', () => {
    const clock = new FakeClock();
    const fired: number[] = [];
    const start = clock.now();
    const b = new Batcher(clock, window, () => fired.push(clock.now() - start));
    for (let t = 0; t < 15_000; t += 500) {
      b.trigger();
      clock.advance(500);
    }
    expect(fired[0]).toBe(10_000);
    expect(fired.length).toBeGreaterThanOrEqual(1);
  });

  it('a stopped batcher does not fire', () => {
    const clock = new FakeClock();
    let fired = 0;
    const b = new Batcher(clock, window, () => fired++);
    b.trigger();
    b.stop();
    clock.advance(20_000);
    expect(fired).toBe(0);
  });
});
