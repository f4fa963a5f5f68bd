import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/index.js';
import { runReconciler, WorkQueue } from '../kube/index.js';
import { createLogger } from './logger.js';
import { ReconcileContext } from './reconcile-context.js';

describe('reconcileID on log lines', () => {
  it('gives every line of one reconcile the same reconcileID, across awaits, and each reconcile its own', async () => {
    const lines: Array<{ message: string; key?: string; reconcileID?: string }> = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
        cb();
      },
    });
    const context = new ReconcileContext();
    const log = createLogger({ level: 'info', destination, mixin: () => context.fields() });
    const queue = new WorkQueue(new FakeClock());
    let done = 0;
    const run = runReconciler({
      queue,
      workers: 2,
      around: (fn) => context.run(fn),
      reconciler: {
        name: 'test',
        reconcile: async (key) => {
          log.info({ key }, 'started');
          await new Promise((r) => setImmediate(r));
          log.info({ key }, 'finished');
          if (++done === 2) queue.shutDown();
        },
      },
    });
    queue.add('a');
    queue.add('b');
    await run;
    log.info('outside');
    const of = (key: string): Set<string | undefined> =>
      new Set(lines.filter((l) => l.key === key).map((l) => l.reconcileID));
    expect(of('a').size).toBe(1);
    expect(of('b').size).toBe(1);
    const [a] = of('a');
    const [b] = of('b');
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).not.toBe(a);
    expect(lines.find((l) => l.message === 'outside')?.reconcileID).toBeUndefined();
  });
});
