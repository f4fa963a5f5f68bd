import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, failure, pod, startHarness, statusOf, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.server.close();
});

describe('embedded API server with @kubernetes/client-node', () => {
  it('refuses requests without the token, but answers /version', async () => {
    const noAuth = await fetch(`${h.server.url}/api/v1/pods`).catch((e: unknown) => e);
    // Node's fetch does not trust the generated CA: use client-node without a token instead.
    expect(noAuth).toBeInstanceOf(Error);
    const kc = new k8s.KubeConfig();
    kc.loadFromString(h.server.kubeConfigYaml.replace(h.server.token, 'wrong-token'));
    const e = await failure(() => kc.makeApiClient(k8s.CoreV1Api).listNamespace());
    expect(statusOf(e)).toBe(401);
    const v = await kc.makeApiClient(k8s.VersionApi).getCode();
    expect(v.gitVersion).toMatch(/^v1\.\d+\.\d+$/);
  });

  it('creates, reads, updates and deletes a pod; new pods are Pending', async () => {
    const created = await h.core.createNamespacedPod({ namespace: 'default', body: pod('crud') });
    expect(created.status?.phase).toBe('Pending');
    expect(created.metadata?.uid).toBeTruthy();
    const got = await h.core.readNamespacedPod({ name: 'crud', namespace: 'default' });
    expect(got.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    got.metadata = { ...got.metadata, labels: { tier: 'web' } };
    const updated = await h.core.replaceNamespacedPod({ name: 'crud', namespace: 'default', body: got });
    expect(Number(updated.metadata?.resourceVersion)).toBeGreaterThan(Number(created.metadata?.resourceVersion));
    await h.core.deleteNamespacedPod({ name: 'crud', namespace: 'default' });
    expect(statusOf(await failure(() => h.core.readNamespacedPod({ name: 'crud', namespace: 'default' })))).toBe(404);
  });

  it('answers a stale resourceVersion with 409 Conflict', async () => {
    const cm = await h.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'occ' }, data: { a: '1' } },
    });
    await h.core.replaceNamespacedConfigMap({ name: 'occ', namespace: 'default', body: { ...cm, data: { a: '2' } } });
    const e = await failure(() =>
      h.core.replaceNamespacedConfigMap({ name: 'occ', namespace: 'default', body: { ...cm, data: { a: '3' } } }),
    );
    expect(statusOf(e)).toBe(409);
    expect(bodyOf(e).reason).toBe('Conflict');
    expect(bodyOf(e).message).toContain('the object has been modified');
  });

  it('rejects duplicates with AlreadyExists and unknown namespaces with NotFound', async () => {
    await h.core.createNamespacedPod({ namespace: 'default', body: pod('dup') });
    const e = await failure(() => h.core.createNamespacedPod({ namespace: 'default', body: pod('dup') }));
    expect(statusOf(e)).toBe(409);
    expect(bodyOf(e).message).toBe('pods "dup" already exists');
    const ns = await failure(() => h.core.createNamespacedPod({ namespace: 'nowhere', body: pod('x') }));
    expect(bodyOf(ns).message).toBe('namespaces "nowhere" not found');
  });

  it('names objects from generateName', async () => {
    const p = await h.core.createNamespacedPod({
      namespace: 'default',
      body: { ...pod(''), metadata: { generateName: 'web-' } },
    });
    expect(p.metadata?.name).toMatch(/^web-[a-z0-9]{5}$/);
  });

  it('filters by label and field selectors and pages with limit/continue', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'sel' } } });
    for (let i = 0; i < 7; i++)
      await h.core.createNamespacedPod({
        namespace: 'sel',
        body: pod(`p${i}`, { labels: { app: i % 2 ? 'odd' : 'even', i: String(i) } }),
      });
    const even = await h.core.listNamespacedPod({ namespace: 'sel', labelSelector: 'app=even' });
    expect(even.items.map((p) => p.metadata?.name)).toEqual(['p0', 'p2', 'p4', 'p6']);
    const set = await h.core.listNamespacedPod({ namespace: 'sel', labelSelector: 'i in (1,2),app!=odd' });
    expect(set.items.map((p) => p.metadata?.name)).toEqual(['p2']);
    const exists = await h.core.listNamespacedPod({ namespace: 'sel', labelSelector: '!i' });
    expect(exists.items).toHaveLength(0);
    const byName = await h.core.listPodForAllNamespaces({ fieldSelector: 'metadata.name=p3,metadata.namespace=sel' });
    expect(byName.items.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`)).toEqual(['sel/p3']);
    const notP3 = await h.core.listNamespacedPod({
      namespace: 'sel',
      fieldSelector: 'metadata.name!=p3,status.podIP=',
    });
    expect(notP3.items.map((p) => p.metadata?.name)).toEqual(['p0', 'p1', 'p2', 'p4', 'p5', 'p6']);
    // Two pods on one node, told apart by IP (a field read from the stored pod, not kept beside it).
    for (const [name, ip] of [
      ['p1', '10.0.0.11'],
      ['p5', '10.0.0.15'],
    ] as const) {
      await h.core.patchNamespacedPodStatus(
        { name, namespace: 'sel', body: { status: { phase: 'Running', podIP: ip } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      );
    }
    const byIp = await h.core.listNamespacedPod({
      namespace: 'sel',
      fieldSelector: 'status.podIP=10.0.0.15,status.phase=Running',
    });
    expect(byIp.items.map((p) => p.metadata?.name)).toEqual(['p5']);
    const notIp = await h.core.listNamespacedPod({
      namespace: 'sel',
      fieldSelector: 'status.podIP!=10.0.0.15,status.phase=Running',
    });
    expect(notIp.items.map((p) => p.metadata?.name)).toEqual(['p1']);
    // A field the kind does not make selectable is refused, whether or not any object exists yet.
    for (const namespace of ['sel', 'nothing-here']) {
      const bad = await failure(() => h.core.listNamespacedPod({ namespace, fieldSelector: 'spec.hostname=x' }));
      expect(statusOf(bad)).toBe(400);
    }
    const page1 = await h.core.listNamespacedPod({ namespace: 'sel', limit: 3 });
    expect(page1.items).toHaveLength(3);
    expect(page1.metadata?.remainingItemCount).toBe(4);
    const page2 = await h.core.listNamespacedPod({ namespace: 'sel', limit: 3, _continue: page1.metadata?._continue });
    const page3 = await h.core.listNamespacedPod({ namespace: 'sel', limit: 3, _continue: page2.metadata?._continue });
    expect([...page1.items, ...page2.items, ...page3.items].map((p) => p.metadata?.name)).toEqual([
      'p0',
      'p1',
      'p2',
      'p3',
      'p4',
      'p5',
      'p6',
    ]);
    expect(page3.metadata?._continue).toBeFalsy();
  });

  it('selects Events by the involved object, reason, type, source and field path, as kubectl describe does', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'ev' } } });
    const event = (name: string, about: string, reason: string, fieldPath?: string) => ({
      metadata: { name },
      involvedObject: {
        apiVersion: 'v1',
        kind: 'Pod',
        name: about,
        namespace: 'ev',
        uid: `uid-${about}`,
        ...(fieldPath ? { fieldPath } : {}),
      },
      reason,
      type: reason === 'Failed' ? 'Warning' : 'Normal',
      source: { component: reason === 'Scheduled' ? 'default-scheduler' : 'kubelet' },
      message: `${reason} ${about}`,
    });
    await h.core.createNamespacedEvent({ namespace: 'ev', body: event('a1', 'a', 'Scheduled') });
    await h.core.createNamespacedEvent({ namespace: 'ev', body: event('a2', 'a', 'Failed', 'spec.containers{app}') });
    await h.core.createNamespacedEvent({ namespace: 'ev', body: event('b1', 'b', 'Scheduled') });
    const names = async (fieldSelector: string): Promise<string[]> =>
      (await h.core.listNamespacedEvent({ namespace: 'ev', fieldSelector })).items
        .map((e) => e.metadata?.name ?? '')
        .sort();
    expect(
      await names('involvedObject.name=a,involvedObject.namespace=ev,involvedObject.uid=uid-a,involvedObject.kind=Pod'),
    ).toEqual(['a1', 'a2']);
    expect(await names('type=Warning')).toEqual(['a2']);
    expect(await names('reason=Scheduled,involvedObject.name!=a')).toEqual(['b1']);
    expect(await names('source=kubelet')).toEqual(['a2']);
    expect(await names('involvedObject.fieldPath=spec.containers{app}')).toEqual(['a2']);
    expect(await names('involvedObject.apiVersion=v1,involvedObject.resourceVersion=')).toEqual(['a1', 'a2', 'b1']);
  });

  it('binds a pod once and selects it by spec.nodeName', async () => {
    await h.core.createNamespacedPod({ namespace: 'default', body: pod('bindme') });
    await h.core
      .createNamespacedBinding({
        namespace: 'default',
        body: { metadata: { name: 'bindme' }, target: { kind: 'Node', name: 'n1' } },
      })
      .catch(async () => {
        // client-node posts to /bindings; the pod subresource is what schedulers use.
        await h.client.call('bind', {
          method: 'POST',
          path: '/api/v1/namespaces/default/pods/bindme/binding',
          body: { metadata: { name: 'bindme' }, target: { kind: 'Node', name: 'n1' } },
        });
      });
    const onNode = await h.core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=n1' });
    expect(onNode.items.map((p) => p.metadata?.name)).toEqual(['bindme']);
    const again = await failure(() =>
      h.client.call('bind', {
        method: 'POST',
        path: '/api/v1/namespaces/default/pods/bindme/binding',
        body: { target: { kind: 'Node', name: 'n2' } },
      }),
    );
    expect(statusOf(again)).toBe(409);
  });
});
