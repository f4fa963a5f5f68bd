import { describe, expect, it } from 'vitest';
import { FakeClock } from './fake-clock.js';
import { sleep } from './clock.js';

describe('FakeClock', () => {
  it('fires timers in time order, including ones set while advancing', () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.setTimer(300, () => fired.push('c'));
    clock.setTimer(100, () => {
      fired.push('a');
      clock.setTimer(50, () => fired.push('b'));
    });
    clock.advance(200);
    expect(fired).toEqual(['a', 'b']);
    expect(clock.now()).toBe(200);
    clock.advance(100);
    expect(fired).toEqual(['a', 'b', 'c']);
  });

  it('cancels timers and jumps to the next one', async () => {
    const clock = new FakeClock(1000);
    const cancel = clock.setTimer(10, () => {
      throw new Error('cancelled timer fired');
    });
    cancel();
    const done = sleep(clock, 5000);
    expect(clock.jumpToNext()).toBe(true);
    await done;
    expect(clock.now()).toBe(6000);
    expect(clock.jumpToNext()).toBe(false);
  });
});
