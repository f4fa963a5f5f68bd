import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/index.js';
import type { Transport, TransportRequest } from '../../kube/index.js';
import { ControllerProcess } from './controller-process.js';

/** A transport that records what reached the server and answers when told. */
function server(): { transport: Transport; received: string[]; answer: () => void } {
  const received: string[] = [];
  const waiting: Array<() => void> = [];
  return {
    received,
    answer: () => {
      for (const w of waiting.splice(0)) w();
    },
    transport: {
      request: (req: TransportRequest) => {
        received.push(`${req.method} ${req.path}`);
        return new Promise((resolve) => waiting.push(() => resolve({ status: 200, body: '{}' })));
      },
      stream: () => new Promise(() => undefined),
    },
  };
}

/** Whether `p` settled once pending callbacks ran. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('a killed controller process', () => {
  it('gets no answer to a request in flight when it dies, and sends nothing afterwards', async () => {
    const s = server();
    const life = new ControllerProcess();
    const t = life.transport(s.transport);
    const inFlight = t.request({ method: 'PATCH', path: '/api/v1/nodes/a' });
    life.kill();
    s.answer();
    expect(await settled(inFlight)).toBe(false);
    const after = t.request({ method: 'DELETE', path: '/api/v1/nodes/a' });
    s.answer();
    expect(await settled(after)).toBe(false);
    expect(s.received).toEqual(['PATCH /api/v1/nodes/a']);
  });

  it('dies on the call the kill point names: delivered or not, and the calls before it are answered', async () => {
    for (const delivered of [false, true]) {
      const s = server();
      const life = new ControllerProcess();
      const t = life.transport(s.transport);
      const killed = life.killAt({
        match: (c) => c.verb === 'POST' && c.path.endsWith('/eviction'),
        skip: 1,
        delivered,
      });
      const first = t.request({ method: 'POST', path: '/api/v1/namespaces/d/pods/a/eviction' });
      s.answer();
      expect(await settled(first)).toBe(true);
      expect(life.killed).toBe(false);
      const second = t.request({ method: 'POST', path: '/api/v1/namespaces/d/pods/b/eviction' });
      s.answer();
      expect(await killed).toEqual({ api: 'kube', verb: 'POST', path: '/api/v1/namespaces/d/pods/b/eviction' });
      expect(await settled(second)).toBe(false);
      expect(s.received).toEqual([
        'POST /api/v1/namespaces/d/pods/a/eviction',
        ...(delivered ? ['POST /api/v1/namespaces/d/pods/b/eviction'] : []),
      ]);
    }
  });

  it('fires none of its timers once dead, and its AWS calls reach nothing', async () => {
    const clock = new FakeClock(0);
    const life = new ControllerProcess();
    const fired: number[] = [];
    const c = life.clock(clock);
    c.setTimer(10, () => fired.push(10));
    c.setTimer(30, () => fired.push(30));
    clock.advance(20);
    const calls: string[] = [];
    const port = life.port({ terminateInstances: (ids: string[]) => Promise.resolve(void calls.push(...ids)) }, 'aws');
    await port.terminateInstances(['i-1']);
    life.kill();
    c.setTimer(5, () => fired.push(5));
    clock.advance(100);
    const late = port.terminateInstances(['i-2']);
    expect(await settled(late)).toBe(false);
    expect(fired).toEqual([10]);
    expect(calls).toEqual(['i-1']);
  });
});
