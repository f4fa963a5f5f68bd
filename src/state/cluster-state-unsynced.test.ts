import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import { KubeClient } from '../kube/index.js';
import { ClusterState } from './cluster-state.js';
import { createInformers, type ClusterInformers } from './informers.js';

// The informers are never started: they never sync unless their kind is unserved.
const offline = new KubeClient({
  request: () => Promise.reject(new Error('offline')),
  stream: () => Promise.reject(new Error('offline')),
});

describe('cluster state unsynced time', () => {
  it('counts from the first check that found it unsynced', () => {
    const clock = new FakeClock();
    const state = new ClusterState(createInformers(offline, clock), clock);
    expect(state.unsyncedSeconds()).toBe(0);
    expect(state.synced()).toBe(false);
    clock.advance(30_000);
    expect(state.synced()).toBe(false);
    expect(state.unsyncedSeconds()).toBe(30);
  });

  it('is 0 once synced, and starts again at the next unsynced check', () => {
    const clock = new FakeClock();
    const informers = createInformers(offline, clock);
    const all = new Set(Object.keys(informers) as Array<keyof ClusterInformers>);
    const state = new ClusterState(informers, clock, all);
    expect(state.synced()).toBe(true);
    expect(state.unsyncedSeconds()).toBe(0);
    // A NodeClaim created but not yet seen in the cache: unsynced until the watch delivers it.
    state.expectNodeClaim('nc-1');
    expect(state.synced()).toBe(false);
    clock.advance(5_000);
    expect(state.unsyncedSeconds()).toBe(5);
  });
});
