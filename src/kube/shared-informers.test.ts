import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/index.js';
import { KubeClient } from './client.js';
import { ObjectCache } from './object-cache.js';
import type { Pod } from './core-types.js';
import { Resources } from './resources.js';
import { SharedInformers } from './shared-informers.js';

// The informers are never started: the tests fill their caches as a watch would.
const offline = new KubeClient({
  request: () => Promise.reject(new Error('offline')),
  stream: () => Promise.reject(new Error('offline')),
});

const pod = (name: string, node: string, owner: string): Pod => ({
  metadata: {
    name,
    namespace: 'default',
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, uid: owner, controller: true }],
  },
  spec: { nodeName: node, containers: [] },
});

describe('SharedInformers', () => {
  it('hands every component the same informer of a resource, with the indexes each asked for', () => {
    const shared = new SharedInformers({ client: offline, clock: new FakeClock() });
    const operatorView = shared.get<Pod>(Resources.pods, {
      nodeName: (p) => (p.spec.nodeName ? [p.spec.nodeName] : []),
    });
    operatorView.cache.set(pod('a', 'n1', 'rs-1'));
    const worldView = shared.get<Pod>(Resources.pods, {
      owner: (p) => p.metadata.ownerReferences?.map((r) => r.uid) ?? [],
    });
    worldView.cache.set(pod('b', 'n1', 'rs-2'));
    expect(worldView).toBe(operatorView);
    expect(
      worldView.cache
        .byIndex('nodeName', 'n1')
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['a', 'b']);
    // An index added later covers the objects cached before it.
    expect(operatorView.cache.byIndex('owner', 'rs-1').map((p) => p.metadata.name)).toEqual(['a']);
    expect(shared.get(Resources.nodes)).not.toBe(operatorView);
  });
});

describe('ObjectCache.addIndexers', () => {
  it('keeps the first function of a name and re-indexes on later writes', () => {
    const cache = new ObjectCache<Pod>({ node: (p) => [p.spec.nodeName ?? ''] });
    cache.addIndexers({ node: () => ['ignored'] });
    cache.set(pod('a', 'n1', 'rs-1'));
    cache.set(pod('a', 'n2', 'rs-1'));
    expect(cache.byIndex('node', 'n1')).toEqual([]);
    expect(cache.byIndex('node', 'n2').map((p) => p.metadata.name)).toEqual(['a']);
    expect(cache.byIndex('node', 'ignored')).toEqual([]);
  });
});
