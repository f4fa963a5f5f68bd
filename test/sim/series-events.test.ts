import { describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../src/clock/index.js';
import type { KubeObject } from '../../src/kube/index.js';
import { SeriesEventRecorder } from '../../src/sim/scheduler/series-events.js';
import { eventsAbout as selectEvents, inProcessServer } from '../apiserver/helpers.js';

// The recorder's behaviour is what is tested, not HTTP: the client calls the server in process, as the playground's.
const clientOf = inProcessServer();

interface StoredEvent extends KubeObject {
  message?: string;
  count?: number;
  lastTimestamp?: string;
  series?: { count?: number; lastObservedTime?: string };
}

const pod = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', uid: `uid-${name}` },
});

const eventsAbout = (name: string): Promise<StoredEvent[]> => selectEvents<StoredEvent>(clientOf(), name);

describe('SeriesEventRecorder (client-go events.k8s.io, as kube-scheduler records)', () => {
  const failed = (nodes: number): { type: 'Warning'; reason: string; message: string } => ({
    type: 'Warning',
    reason: 'FailedScheduling',
    message: `0/${nodes} nodes are available: ${nodes} Insufficient cpu.`,
  });
  const seriesRecorder = (clock: FakeClock): SeriesEventRecorder =>
    new SeriesEventRecorder({
      client: clientOf(),
      clock,
      component: 'default-scheduler',
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
});
