import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../src/clock/index.js';
import { EventRecorder, Resources, TokenBucket, type KubeObject } from '../../src/kube/index.js';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.server.close();
});

interface StoredEvent extends KubeObject {
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string;
  series?: { count?: number; lastObservedTime?: string };
  involvedObject?: { name?: string };
}

const node = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `uid-${name}` } });
const pod = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', uid: `uid-${name}` },
});

async function eventsAbout(name: string): Promise<StoredEvent[]> {
  const list = await h.client.list<StoredEvent>(Resources.events, { namespace: 'default' });
  return list.items.filter((e) => e.involvedObject?.name === name);
}

describe('EventRecorder', () => {
  it('counts a repeated event on the first one, and starts a new one once the window has passed', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const rec = new EventRecorder({
      client: h.client,
      clock,
      component: 'test',
      dedupeWindow: 60_000,
      onError: (e) => {
        throw e;
      },
    });
    const spec = { type: 'Warning' as const, reason: 'Repeated', message: 'same thing again' };
    await rec.publish(node('n1'), spec);
    clock.advance(30_000);
    await rec.publish(node('n1'), spec);
    let events = await eventsAbout('n1');
    expect(events.map((e) => e.count)).toEqual([2]);
    clock.advance(61_000);
    await rec.publish(node('n1'), spec);
    events = await eventsAbout('n1');
    expect(events.map((e) => e.count ?? 1).sort()).toEqual([1, 2]);
  });

  it('keeps de-duplicating the recent events while thousands of distinct ones go by', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const rec = new EventRecorder({
      client: h.client,
      clock,
      component: 'test',
      onError: (e) => {
        throw e;
      },
    });
    const spec = { type: 'Normal' as const, reason: 'Busy', message: 'one of many' };
    for (let i = 0; i < 4200; i++) await rec.publish(node(`m${i}`), spec);
    // The newest is still remembered: publishing it again bumps its count rather than creating another.
    await rec.publish(node('m4199'), spec);
    expect((await eventsAbout('m4199')).map((e) => e.count)).toEqual([2]);
    // The oldest fell out of the 4096-entry LRU: a repeat is a new Event, as with client-go's correlator.
    await rec.publish(node('m0'), spec);
    expect((await eventsAbout('m0')).length).toBe(2);
  }, 60_000);

  it('lets a component record 25 events about one object, then one every 5 minutes, as client-go does', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 2));
    const rec = new EventRecorder({
      client: h.client,
      clock,
      component: 'test',
      onError: (e) => {
        throw e;
      },
    });
    for (let i = 0; i < 30; i++)
      await rec.publish(node('spammy'), { type: 'Warning', reason: 'Flapping', message: `state ${i}` });
    expect((await eventsAbout('spammy')).length).toBe(25);
    clock.advance(300_000);
    await rec.publish(node('spammy'), { type: 'Warning', reason: 'Flapping', message: 'state 30' });
    await rec.publish(node('spammy'), { type: 'Warning', reason: 'Flapping', message: 'state 31' });
    expect((await eventsAbout('spammy')).map((e) => e.message)).toContain('state 30');
    expect((await eventsAbout('spammy')).length).toBe(26);
  });

  it('drops an event Karpenter de-duplicates (same reason and values) within its timeout, whatever the message', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 3));
    const rec = new EventRecorder({
      client: h.client,
      clock,
      component: 'test',
      onError: (e) => {
        throw e;
      },
    });
    const nominated = (
      target: string,
    ): { type: 'Normal'; reason: string; message: string; dedupe: { values: string[] } } => ({
      type: 'Normal',
      reason: 'Nominated',
      message: `Pod should schedule on: ${target}`,
      dedupe: { values: ['uid-moving'] },
    });
    await rec.publish(node('moving'), nominated('nodeclaim/a'));
    clock.advance(60_000);
    await rec.publish(node('moving'), nominated('nodeclaim/b'));
    expect((await eventsAbout('moving')).map((e) => e.message)).toEqual(['Pod should schedule on: nodeclaim/a']);
    clock.advance(61_000);
    await rec.publish(node('moving'), nominated('nodeclaim/c'));
    expect((await eventsAbout('moving')).map((e) => e.message).sort()).toEqual([
      'Pod should schedule on: nodeclaim/a',
      'Pod should schedule on: nodeclaim/c',
    ]);
  });

  it('drops events a shared limiter refuses: a burst of 10, then 5 a second', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 4));
    const rec = new EventRecorder({
      client: h.client,
      clock,
      component: 'test',
      onError: (e) => {
        throw e;
      },
    });
    const limiter = new TokenBucket(5, 10);
    const spec = { type: 'Normal' as const, reason: 'Limited', message: 'one of a crowd', limiter };
    for (let i = 0; i < 20; i++) await rec.publish(node(`crowd-${i}`), spec);
    clock.advance(1000);
    for (let i = 20; i < 40; i++) await rec.publish(node(`crowd-${i}`), spec);
    const list = await h.client.list<StoredEvent>(Resources.events, { namespace: 'default' });
    expect(list.items.filter((e) => e.reason === 'Limited').length).toBe(15);
  });
});

describe('EventRecorder in series mode (client-go events.k8s.io, as kube-scheduler records)', () => {
  const failed = (nodes: number): { type: 'Warning'; reason: string; message: string } => ({
    type: 'Warning',
    reason: 'FailedScheduling',
    message: `0/${nodes} nodes are available: ${nodes} Insufficient cpu.`,
  });
  const seriesRecorder = (clock: FakeClock): EventRecorder =>
    new EventRecorder({
      client: h.client,
      clock,
      component: 'default-scheduler',
      series: true,
      onError: (e) => {
        throw e;
      },
    });
  /** What `kubectl get events` shows about the pod: message and count of each Event. */
  const shown = async (name: string): Promise<Array<{ message?: string; count?: number; series?: number }>> =>
    (await eventsAbout(name)).map((e) => ({ message: e.message, count: e.count, series: e.series?.count }));

  it('keeps one Event per pod whatever the message: count 2 at once, brought up to date by the 30-minute heartbeat', async () => {
    const clock = new FakeClock(Date.UTC(2026, 1, 1));
    const rec = seriesRecorder(clock);
    await rec.publish(pod('pending'), failed(12));
    expect(await shown('pending')).toEqual([
      { message: '0/12 nodes are available: 12 Insufficient cpu.', count: 1, series: undefined },
    ]);
    clock.advance(60_000);
    await rec.publish(pod('pending'), failed(15));
    expect(await shown('pending')).toEqual([
      { message: '0/12 nodes are available: 12 Insufficient cpu.', count: 2, series: 2 },
    ]);
    // A retry every 5 minutes keeps the series going; repeats are counted but not written.
    for (let i = 1; i <= 5; i++) {
      clock.advance(5 * 60_000 - (i === 1 ? 60_000 : 0));
      await rec.publish(pod('pending'), failed(15 + i));
    }
    expect(await shown('pending')).toEqual([
      { message: '0/12 nodes are available: 12 Insufficient cpu.', count: 2, series: 2 },
    ]);
    clock.advance(5 * 60_000);
    await vi.waitFor(async () =>
      expect(await shown('pending')).toEqual([
        { message: '0/12 nodes are available: 12 Insufficient cpu.', count: 7, series: 7 },
      ]),
    );
    const [event] = await eventsAbout('pending');
    expect(event?.lastTimestamp).toBe('2026-02-01T00:25:00Z');
    expect(event?.series?.lastObservedTime).toBe('2026-02-01T00:25:00.000000Z');
    rec.stop();
  });

  it('ends a series after 6 minutes without a repeat: its final count is written, and the next one is a new Event', async () => {
    const clock = new FakeClock(Date.UTC(2026, 1, 2));
    const rec = seriesRecorder(clock);
    for (let i = 0; i < 4; i++) {
      await rec.publish(pod('waiting'), failed(3 + i));
      clock.advance(20_000);
    }
    expect((await shown('waiting')).map((e) => e.count)).toEqual([2]);
    clock.advance(13 * 60_000);
    await vi.waitFor(async () => expect((await shown('waiting')).map((e) => e.count)).toEqual([4]));
    await rec.publish(pod('waiting'), failed(9));
    const events = await shown('waiting');
    expect(events).toHaveLength(2);
    expect(events).toContainEqual({
      message: '0/9 nodes are available: 9 Insufficient cpu.',
      count: 1,
      series: undefined,
    });
    rec.stop();
  });

  it('ends a series on request: the count the API server lacks is written at once, and a repeat is a new Event', async () => {
    const clock = new FakeClock(Date.UTC(2026, 1, 4));
    const rec = seriesRecorder(clock);
    for (let i = 0; i < 5; i++) {
      await rec.publish(pod('bound'), failed(3 + i));
      clock.advance(10_000);
    }
    expect((await shown('bound')).map((e) => e.count)).toEqual([2]);
    await rec.finish(pod('bound'), [{ type: 'Warning', reason: 'FailedScheduling' }]);
    expect((await shown('bound')).map((e) => e.count)).toEqual([5]);
    // Another reason's series, or another object's, is not touched.
    await rec.finish(pod('other'), [{ type: 'Warning', reason: 'FailedScheduling' }]);
    await rec.publish(pod('bound'), failed(20));
    expect((await shown('bound')).map((e) => e.count).sort()).toEqual([1, 5]);
    rec.stop();
  });

  it('keeps a series going while more than 4096 other pods fail scheduling too', async () => {
    const clock = new FakeClock(Date.UTC(2026, 1, 5));
    const rec = seriesRecorder(clock);
    for (let i = 0; i < 5000; i++) await rec.publish(pod(`throng-${i}`), failed(1));
    clock.advance(60_000);
    await rec.publish(pod('throng-0'), failed(2));
    expect((await shown('throng-0')).map((e) => e.count)).toEqual([2]);
    rec.stop();
  }, 60_000);

  it('still applies the spam filter: of 30 occurrences about one object within a minute, 25 are counted', async () => {
    const clock = new FakeClock(Date.UTC(2026, 1, 3));
    const rec = seriesRecorder(clock);
    for (let i = 0; i < 30; i++) {
      await rec.publish(pod('flapping'), failed(i));
      clock.advance(1000);
    }
    clock.advance(13 * 60_000);
    // The heartbeat writes asynchronously; a loaded machine (the suite runs files in parallel) can take over a second.
    await vi.waitFor(async () => expect((await shown('flapping')).map((e) => e.count)).toEqual([25]), {
      timeout: 10_000,
    });
    rec.stop();
  });

  it('leaves the default mode alone: a changed message is another Event', async () => {
    const clock = new FakeClock(Date.UTC(2026, 1, 4));
    const rec = new EventRecorder({
      client: h.client,
      clock,
      component: 'test',
      onError: (e) => {
        throw e;
      },
    });
    await rec.publish(pod('plain'), failed(1));
    clock.advance(1000);
    await rec.publish(pod('plain'), failed(2));
    expect((await shown('plain')).map((e) => e.count)).toEqual([1, 1]);
  });
});
