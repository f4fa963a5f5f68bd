import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock/index.js';
import { EventRecorder, Resources, TokenBucket, type KubeObject } from '../../src/kube/index.js';
import { eventsAbout as selectEvents, inProcessServer } from './helpers.js';

// The recorder's behaviour is what is tested, not HTTP: the client calls the server in process, as the playground's.
const clientOf = inProcessServer();

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

const eventsAbout = (name: string): Promise<StoredEvent[]> => selectEvents<StoredEvent>(clientOf(), name);

describe('EventRecorder', () => {
  it('counts a repeated event on the first one, and starts a new one once the window has passed', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const rec = new EventRecorder({
      client: clientOf(),
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
      client: clientOf(),
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
      client: clientOf(),
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
      client: clientOf(),
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
      client: clientOf(),
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
    const list = await clientOf().list<StoredEvent>(Resources.events, {
      namespace: 'default',
      fieldSelector: 'reason=Limited',
    });
    expect(list.items.length).toBe(15);
  });

  it("records a changed message as another Event, unlike kube-scheduler's series recorder", async () => {
    const failed = (nodes: number): { type: 'Warning'; reason: string; message: string } => ({
      type: 'Warning',
      reason: 'FailedScheduling',
      message: `0/${nodes} nodes are available: ${nodes} Insufficient cpu.`,
    });
    const clock = new FakeClock(Date.UTC(2026, 1, 4));
    const rec = new EventRecorder({
      client: clientOf(),
      clock,
      component: 'test',
      onError: (e) => {
        throw e;
      },
    });
    await rec.publish(pod('plain'), failed(1));
    clock.advance(1000);
    await rec.publish(pod('plain'), failed(2));
    expect((await eventsAbout('plain')).map((e) => e.count)).toEqual([1, 1]);
  });
});
