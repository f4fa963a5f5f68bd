import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock/index.js';
import { EventRecorder, Resources, type KubeObject } from '../../src/kube/index.js';
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
  count?: number;
  involvedObject?: { name?: string };
}

const node = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `uid-${name}` } });

async function eventsAbout(name: string): Promise<StoredEvent[]> {
  const list = await h.client.list<StoredEvent>(Resources.events, { namespace: 'default' });
  return list.items.filter((e) => e.involvedObject?.name === name);
}

describe('EventRecorder', () => {
  it('counts a repeated event on the first one, and starts a new one once the window has passed', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const rec = new EventRecorder({ client: h.client, clock, component: 'test', dedupeWindow: 60_000, onError: (e) => { throw e; } });
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
    const rec = new EventRecorder({ client: h.client, clock, component: 'test', onError: (e) => { throw e; } });
    const spec = { type: 'Normal' as const, reason: 'Busy', message: 'one of many' };
    for (let i = 0; i < 4200; i++) await rec.publish(node(`m${i}`), spec);
    // The newest is still remembered: publishing it again bumps its count rather than creating another.
    await rec.publish(node('m4199'), spec);
    expect((await eventsAbout('m4199')).map((e) => e.count)).toEqual([2]);
    // The oldest fell out of the 4096-entry LRU: a repeat is a new Event, as with client-go's correlator.
    await rec.publish(node('m0'), spec);
    expect((await eventsAbout('m0')).length).toBe(2);
  }, 60_000);
});
