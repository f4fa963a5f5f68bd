// Events are stored packed only (src/apiserver/storage/compact-entries.ts): what a user does with them must work as for
// any other object — get, list by field, page, patch, delete, and garbage collection through an owner.
import type * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resources } from '../../src/kube/index.js';
import { eventually, failure, startHarness, statusOf, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.server.close();
});

const ns = 'default';
const pods = 40;
const perPod = 30;

function event(i: number): k8s.CoreV1Event {
  const pod = `web-${i % pods}`;
  const failed = i % 3 === 0;
  return {
    metadata: { name: `${pod}.${i.toString(16).padStart(6, '0')}`, namespace: ns },
    involvedObject: { apiVersion: 'v1', kind: 'Pod', name: pod, namespace: ns, uid: `uid-${pod}` },
    type: failed ? 'Warning' : 'Normal',
    reason: failed ? 'FailedScheduling' : 'Scheduled',
    message: failed
      ? `0/${i} nodes are available: ${i % 7} Insufficient cpu.`
      : `Successfully assigned ${ns}/${pod} to node-${i % 11}`,
    count: 1,
    source: { component: 'default-scheduler' },
  };
}

describe('Events', () => {
  const total = pods * perPod;
  beforeAll(async () => {
    for (let i = 0; i < total; i++) await h.core.createNamespacedEvent({ namespace: ns, body: event(i) });
  }, 120_000);

  it('read back as they were written, one by one and by field selector', async () => {
    for (const i of [0, 1, 517, total - 1]) {
      const want = event(i);
      const got = await h.core.readNamespacedEvent({ name: want.metadata.name ?? '', namespace: ns });
      expect([got.reason, got.message, got.type, got.involvedObject.name, got.source?.component]).toEqual([
        want.reason,
        want.message,
        want.type,
        want.involvedObject.name,
        'default-scheduler',
      ]);
      expect(got.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    }
    const about = await h.core.listNamespacedEvent({
      namespace: ns,
      fieldSelector: 'involvedObject.name=web-7,reason=FailedScheduling',
    });
    const expected = Array.from({ length: total }, (_, i) => event(i)).filter(
      (e) => e.involvedObject.name === 'web-7' && e.reason === 'FailedScheduling',
    );
    expect(about.items.map((e) => e.metadata.name).sort()).toEqual(expected.map((e) => e.metadata.name).sort());
  });

  it('list in pages with every Event once, while others are written between the pages', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let extra = 0;
    do {
      const page = await h.core.listNamespacedEvent({ namespace: ns, limit: 250, _continue: token });
      seen.push(...page.items.map((e) => e.metadata.name ?? ''));
      token = page.metadata?._continue || undefined;
      // Written after the first page: a consistent list leaves them out.
      await h.core.createNamespacedEvent({
        namespace: ns,
        body: { ...event(extra), metadata: { name: `late-${extra++}`, namespace: ns } },
      });
    } while (token);
    expect(seen.length).toBe(new Set(seen).size);
    expect(seen.filter((n) => !n.startsWith('late-')).length).toBe(total);
    expect(seen.some((n) => n.startsWith('late-'))).toBe(false);
  });

  it('take a patch of their count, keep it, and go away when deleted', async () => {
    const name = event(42).metadata.name ?? '';
    const before = await h.core.readNamespacedEvent({ name, namespace: ns });
    await h.client.patch(Resources.events, { name, namespace: ns }, { count: 7 });
    const after = await h.core.readNamespacedEvent({ name, namespace: ns });
    expect(after.count).toBe(7);
    expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(Number(before.metadata.resourceVersion));
    expect(after.metadata.uid).toBe(before.metadata.uid);
    await h.core.deleteNamespacedEvent({ name, namespace: ns });
    expect(statusOf(await failure(() => h.core.readNamespacedEvent({ name, namespace: ns })))).toBe(404);
    const left = await h.core.listNamespacedEvent({ namespace: ns, fieldSelector: `metadata.name=${name}` });
    expect(left.items).toEqual([]);
  });

  it('go by field selector in one delete-collection, and with their namespace', async () => {
    const aboutWeb4 = async (): Promise<number> =>
      (await h.core.listNamespacedEvent({ namespace: ns, fieldSelector: 'involvedObject.name=web-4' })).items.length;
    const web4 = await aboutWeb4();
    expect(web4).toBeGreaterThanOrEqual(perPod);
    await h.core.deleteCollectionNamespacedEvent({ namespace: ns, fieldSelector: 'involvedObject.name=web-3' });
    expect(
      (await h.core.listNamespacedEvent({ namespace: ns, fieldSelector: 'involvedObject.name=web-3' })).items,
    ).toEqual([]);
    expect(await aboutWeb4()).toBe(web4);
    await h.core.createNamespace({ body: { metadata: { name: 'short-lived' } } });
    for (let i = 0; i < 20; i++)
      await h.core.createNamespacedEvent({
        namespace: 'short-lived',
        body: { ...event(i), metadata: { name: `e-${i}`, namespace: 'short-lived' } },
      });
    await h.core.deleteNamespace({ name: 'short-lived' });
    await eventually(async () => (await h.core.listNamespacedEvent({ namespace: 'short-lived' })).items.length === 0);
    expect(await aboutWeb4()).toBe(web4);
  });

  it('with an owner are deleted with it', async () => {
    const owner = await h.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'owner' } } });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid ?? '' };
    await h.core.createNamespacedEvent({
      namespace: ns,
      body: { ...event(1), metadata: { name: 'owned', namespace: ns, ownerReferences: [ref] } },
    });
    await h.core.deleteNamespacedConfigMap({ name: 'owner', namespace: ns });
    await eventually(
      async () => statusOf(await failure(() => h.core.readNamespacedEvent({ name: 'owned', namespace: ns }))) === 404,
    );
  });
});
