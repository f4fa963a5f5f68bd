import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/index.js';
import { runReconciler } from './reconciler.js';
import { WorkQueue } from './work-queue.js';

describe('WorkQueue', () => {
  it('hands out each queued key once, however often it was added', async () => {
    const q = new WorkQueue(new FakeClock(0));
    q.add('a');
    q.add('b');
    q.add('a');
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBe('b');
    expect(q.length).toBe(0);
  });

  it('re-queues a key added while it was being processed, only after it is done', async () => {
    const q = new WorkQueue(new FakeClock(0));
    q.add('a');
    const key = await q.get();
    q.add('a');
    expect(q.length).toBe(0);
    q.done(key ?? '');
    expect(await q.get()).toBe('a');
  });

  it('leaves no timer behind when a worker requeues its key after shutdown', async () => {
    const clock = new FakeClock(0);
    const q = new WorkQueue(clock);
    q.add('a');
    let finish: () => void = () => undefined;
    const run = runReconciler({
      queue: q,
      reconciler: {
        name: 'test',
        reconcile: () => new Promise((resolve) => (finish = () => resolve({ requeueAfter: 900_000 }))),
      },
    });
    await Promise.resolve();
    q.shutDown();
    finish();
    await run;
    expect(clock.pending()).toBe(0);
  });

  it('backs off exponentially per key and forgets on success', () => {
    const clock = new FakeClock(0);
    const q = new WorkQueue(clock, { base: 100, max: 1000 });
    q.addRateLimited('a');
    clock.advance(99);
    expect(q.length).toBe(0);
    clock.advance(1);
    expect(q.length).toBe(1);
    q.addRateLimited('b');
    q.addRateLimited('b');
    expect(q.retries('b')).toBe(2);
    q.forget('b');
    expect(q.retries('b')).toBe(0);
  });

  it('keeps the earliest of two delayed adds', () => {
    const clock = new FakeClock(0);
    const q = new WorkQueue(clock);
    q.addAfter('a', 500);
    q.addAfter('a', 100);
    q.addAfter('a', 900);
    clock.advance(100);
    expect(q.length).toBe(1);
  });

  it('runs a reconciler, retrying failures with back-off and honouring requeueAfter', async () => {
    const clock = new FakeClock(0);
    const q = new WorkQueue(clock, { base: 10, max: 100 });
    const calls: string[] = [];
    let failOnce = true;
    const run = runReconciler({
      queue: q,
      reconciler: {
        name: 'test',
        reconcile: async (key) => {
          calls.push(`${key}@${clock.now()}`);
          if (key === 'x' && failOnce) {
            failOnce = false;
            throw new Error('boom');
          }
          return key === 'y' && clock.now() === 0 ? { requeueAfter: 50 } : undefined;
        },
      },
    });
    q.add('x');
    q.add('y');
    await new Promise((r) => setImmediate(r));
    clock.advance(10);
    await new Promise((r) => setImmediate(r));
    clock.advance(40);
    await new Promise((r) => setImmediate(r));
    q.shutDown();
    await run;
    expect(calls).toEqual(['x@0', 'y@0', 'x@10', 'y@50']);
  });
});
