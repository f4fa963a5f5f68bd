import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Informer, KubeClient, Resources, type KubeObject } from '../../src/kube/index.js';
import { inProcessTransport } from '../../src/sim/playground/in-process-transport.js';
import { FakeClock, systemClock } from '../../src/clock/index.js';
import { bodyOf, eventually, failure, pod, startHarness, statusOf, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ watchHistory: 50 });
});
afterAll(async () => {
  await h.server.close();
});

const nodePool = (name: string, spec: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name },
  spec: {
    template: {
      spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' }, requirements: [] },
    },
    ...spec,
  },
});

describe('watch', () => {
  it('streams changes after a resourceVersion and answers a compacted one with 410 Gone', async () => {
    const list = await h.core.listNamespacedConfigMap({ namespace: 'default' });
    const events: string[] = [];
    const w = new k8s.Watch(h.kc);
    let ended: unknown = 'open';
    const req = await w.watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: list.metadata?.resourceVersion },
      (type, obj: k8s.V1ConfigMap) => events.push(`${type} ${obj.metadata?.name ?? ''}`),
      (err) => (ended = err),
    );
    await h.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'w1' } } });
    await h.core.patchNamespacedConfigMap(
      { name: 'w1', namespace: 'default', body: { data: { a: 'b' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await h.core.deleteNamespacedConfigMap({ name: 'w1', namespace: 'default' });
    await eventually(() => events.length >= 3);
    expect(events).toEqual(['ADDED w1', 'MODIFIED w1', 'DELETED w1']);
    req.abort();
    expect(ended).toBeDefined();
    // Push the configmap history past its 50-event window, then watch from the old resourceVersion.
    for (let i = 0; i < 60; i++)
      await h.client.call('create', {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { metadata: { name: `fill${i}` } },
      });
    const res = await h.client.transport.request({
      method: 'GET',
      path: '/api/v1/namespaces/default/configmaps',
      query: { watch: true, resourceVersion: list.metadata?.resourceVersion },
    });
    const first = JSON.parse(res.body.split('\n')[0] ?? '{}') as {
      type: string;
      object: { code: number; reason: string };
    };
    expect(first.type).toBe('ERROR');
    expect(first.object.code).toBe(410);
  });

  it('keeps an informer in sync across dropped watches and a 410', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'inf' } } });
    const inf = new Informer({
      client: h.client,
      resource: Resources.configMaps,
      clock: systemClock,
      namespace: 'inf',
      backoff: { base: 10, max: 50 },
    });
    inf.start();
    await inf.waitForSync();
    await h.core.createNamespacedConfigMap({ namespace: 'inf', body: { metadata: { name: 'a' } } });
    await eventually(() => inf.cache.list().length === 1);
    h.server.closeWatches();
    for (let i = 0; i < 60; i++)
      await h.core.createNamespacedConfigMap({ namespace: 'inf', body: { metadata: { name: `b${i}` } } });
    h.server.closeWatches();
    await h.core.deleteNamespacedConfigMap({ name: 'a', namespace: 'inf' });
    await eventually(
      () => inf.cache.list().length === 60 && !inf.cache.list().some((o: KubeObject) => o.metadata.name === 'a'),
    );
    inf.stop();
  });

  it('re-delivers its objects every resync period for as long as it runs, and not after stop', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'resync' } } });
    await h.core.createNamespacedConfigMap({ namespace: 'resync', body: { metadata: { name: 'r' } } });
    const clock = new FakeClock();
    const inf = new Informer({
      client: h.client,
      resource: Resources.configMaps,
      clock,
      namespace: 'resync',
      resyncPeriod: 1_000,
    });
    let resyncs = 0;
    inf.on({ update: (before, after) => void (before === after && resyncs++) });
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      inf.start();
      await inf.waitForSync();
      // Thirty periods: a listener per period on the informer's stop signal would pass Node's limit of ten.
      for (let i = 0; i < 30; i++) clock.advance(1_000);
      await new Promise((r) => setImmediate(r));
      expect(resyncs).toBe(30);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
      inf.stop();
      clock.advance(10_000);
      expect(resyncs).toBe(30);
      expect(clock.pending()).toBe(0);
    } finally {
      process.off('warning', onWarning);
      inf.stop();
    }
  });

  it('caches objects without managedFields unless asked to keep them', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'mf' } } });
    const stored = await h.core.createNamespacedConfigMap({
      namespace: 'mf',
      body: { metadata: { name: 'm' }, data: { a: 'b' } },
    });
    expect(stored.metadata?.managedFields?.length).toBeGreaterThan(0);
    const lean = new Informer({
      client: h.client,
      resource: Resources.configMaps,
      clock: systemClock,
      namespace: 'mf',
    });
    const full = new Informer({
      client: h.client,
      resource: Resources.configMaps,
      clock: systemClock,
      namespace: 'mf',
      keepManagedFields: true,
    });
    for (const i of [lean, full]) i.start();
    await Promise.all([lean.waitForSync(), full.waitForSync()]);
    await h.core.patchNamespacedConfigMap(
      { name: 'm', namespace: 'mf', body: { data: { a: 'c' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await eventually(
      () =>
        lean.cache.get('mf/m')?.metadata.resourceVersion === full.cache.get('mf/m')?.metadata.resourceVersion &&
        full.cache.get('mf/m')?.metadata.resourceVersion !== stored.metadata?.resourceVersion,
    );
    expect(lean.cache.get('mf/m')?.metadata.managedFields).toBeUndefined();
    expect(full.cache.get('mf/m')?.metadata.managedFields?.length).toBeGreaterThan(0);
    for (const i of [lean, full]) i.stop();
  });
});

describe('deletion', () => {
  it('deletes what is in a namespace with it, so recreating the namespace starts empty', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'gone' } } });
    await h.core.createNamespacedConfigMap({ namespace: 'gone', body: { metadata: { name: 'cm' } } });
    await h.core.createNamespacedPod({ namespace: 'gone', body: pod('p') });
    await h.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'stays-in-default' } } });
    await h.core.deleteNamespace({ name: 'gone' });
    await h.core.createNamespace({ body: { metadata: { name: 'gone' } } });
    expect((await h.core.listNamespacedConfigMap({ namespace: 'gone' })).items).toEqual([]);
    expect((await h.core.listNamespacedPod({ namespace: 'gone' })).items).toEqual([]);
    expect(
      (await h.core.readNamespacedConfigMap({ name: 'stays-in-default', namespace: 'default' })).metadata?.name,
    ).toBe('stays-in-default');
  });

  it('waits for finalizers: deletionTimestamp first, removal when the last one goes', async () => {
    await h.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'fin', finalizers: ['tenon.sh/hold'] } },
    });
    await h.core.deleteNamespacedConfigMap({ name: 'fin', namespace: 'default' });
    const held = await h.core.readNamespacedConfigMap({ name: 'fin', namespace: 'default' });
    expect(held.metadata?.deletionTimestamp).toBeTruthy();
    await h.core.patchNamespacedConfigMap(
      { name: 'fin', namespace: 'default', body: [{ op: 'remove', path: '/metadata/finalizers' }] },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
    expect(statusOf(await failure(() => h.core.readNamespacedConfigMap({ name: 'fin', namespace: 'default' })))).toBe(
      404,
    );
  });

  it('keeps a bound pod Terminating until the kubelet deletes it with grace 0', async () => {
    await h.core.createNamespacedPod({ namespace: 'default', body: pod('graceful', { nodeName: 'n9' }) });
    await h.core.deleteNamespacedPod({ name: 'graceful', namespace: 'default' });
    const p = await h.core.readNamespacedPod({ name: 'graceful', namespace: 'default' });
    expect(p.metadata?.deletionGracePeriodSeconds).toBe(30);
    await h.core.deleteNamespacedPod({ name: 'graceful', namespace: 'default', gracePeriodSeconds: 0 });
    expect(statusOf(await failure(() => h.core.readNamespacedPod({ name: 'graceful', namespace: 'default' })))).toBe(
      404,
    );
  });

  it('garbage-collects dependents in the background and in the foreground', async () => {
    const owner = await h.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'owner' } },
    });
    const ref = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'owner',
      uid: owner.metadata?.uid ?? '',
      blockOwnerDeletion: true,
    };
    await h.core.createNamespacedPod({
      namespace: 'default',
      body: { ...pod('dep1'), metadata: { name: 'dep1', ownerReferences: [ref] } },
    });
    await h.core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default' });
    await eventually(
      async () =>
        (await h.core.listNamespacedPod({ namespace: 'default', fieldSelector: 'metadata.name=dep1' })).items.length ===
        0,
    );

    const owner2 = await h.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'owner2' } },
    });
    const ref2 = { ...ref, name: 'owner2', uid: owner2.metadata?.uid ?? '' };
    await h.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'dep2', ownerReferences: [ref2], finalizers: ['hold'] } },
    });
    await h.core.deleteNamespacedConfigMap({ name: 'owner2', namespace: 'default', propagationPolicy: 'Foreground' });
    const waiting = await h.core.readNamespacedConfigMap({ name: 'owner2', namespace: 'default' });
    expect(waiting.metadata?.finalizers).toContain('foregroundDeletion');
    await eventually(async () =>
      Boolean(
        (await h.core.readNamespacedConfigMap({ name: 'dep2', namespace: 'default' })).metadata?.deletionTimestamp,
      ),
    );
    await h.core.patchNamespacedConfigMap(
      { name: 'dep2', namespace: 'default', body: { metadata: { finalizers: null } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await eventually(
      async () =>
        (await h.core.listNamespacedConfigMap({ namespace: 'default', fieldSelector: 'metadata.name=owner2' })).items
          .length === 0,
    );
  });
});

describe('eviction', () => {
  it('honours a PodDisruptionBudget with 429 and the budget named', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'evict' } } });
    const policy = h.kc.makeApiClient(k8s.PolicyV1Api);
    await policy.createNamespacedPodDisruptionBudget({
      namespace: 'evict',
      body: { metadata: { name: 'web-pdb' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
    });
    for (const name of ['w1', 'w2']) {
      await h.core.createNamespacedPod({
        namespace: 'evict',
        body: pod(name, { labels: { app: 'web' }, nodeName: 'n1' }),
      });
      await h.core.patchNamespacedPodStatus(
        {
          name,
          namespace: 'evict',
          body: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
        },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      );
    }
    const evict = (name: string): Promise<unknown> =>
      h.client.evict({ name, namespace: 'evict' }, { gracePeriodSeconds: 0 });
    await evict('w1');
    const e = await failure(() => evict('w2'));
    expect(statusOf(e)).toBe(429);
    const status = (e as { status: { message: string; details: { causes: Array<{ message: string }> } } }).status;
    expect(status.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(status.details.causes[0]?.message).toBe(
      'The disruption budget web-pdb needs 1 healthy pods and has 1 currently',
    );
  });
});

describe('custom resources', () => {
  it('validates NodePools against the CRD schema with 422 and stores nothing', async () => {
    const bad = nodePool('bad', { disruption: { consolidationPolicy: 'Sometimes', consolidateAfter: '30s' } });
    const e = await failure(() =>
      h.custom.createClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools', body: bad }),
    );
    expect(statusOf(e)).toBe(422);
    expect(bodyOf(e).message).toContain(
      'NodePool.karpenter.sh "bad" is invalid: [spec.disruption.consolidationPolicy: Unsupported value: "Sometimes"',
    );
    // The enum error keeps kube-apiserver from evaluating the CEL rules, and it says so.
    expect(bodyOf(e).message).toContain('<nil>: Invalid value: "null": some validation rules were not checked');
    expect(
      statusOf(
        await failure(() =>
          h.custom.getClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools', name: 'bad' }),
        ),
      ),
    ).toBe(404);
  });

  it('defaults, bumps generation on spec changes only and keeps status to the status subresource', async () => {
    const created = (await h.custom.createClusterCustomObject({
      group: 'karpenter.sh',
      version: 'v1',
      plural: 'nodepools',
      body: nodePool('gen'),
    })) as { metadata: { generation: number }; spec: { disruption?: { consolidateAfter?: string } } };
    expect(created.metadata.generation).toBe(1);
    expect(created.spec.disruption?.consolidateAfter).toBeDefined();
    const opts = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
    const st = (await h.custom.patchClusterCustomObjectStatus(
      {
        group: 'karpenter.sh',
        version: 'v1',
        plural: 'nodepools',
        name: 'gen',
        body: { status: { resources: { nodes: '3' } } },
      },
      opts,
    )) as { metadata: { generation: number } };
    expect(st.metadata.generation).toBe(1);
    const sp = (await h.custom.patchClusterCustomObject(
      {
        group: 'karpenter.sh',
        version: 'v1',
        plural: 'nodepools',
        name: 'gen',
        body: { spec: { weight: 5 }, status: { resources: { nodes: '9' } } },
      },
      opts,
    )) as { metadata: { generation: number }; status: { resources: { nodes: string } } };
    expect(sp.metadata.generation).toBe(2);
    expect(sp.status.resources.nodes).toBe('3');
  });
});

describe('dry-run, tables, discovery and faults', () => {
  it('stores nothing on dryRun=All', async () => {
    const p = await h.core.createNamespacedPod({ namespace: 'default', body: pod('dry'), dryRun: 'All' });
    expect(p.metadata?.name).toBe('dry');
    expect(statusOf(await failure(() => h.core.readNamespacedPod({ name: 'dry', namespace: 'default' })))).toBe(404);
  });

  it('serves Tables with CRD printer columns and aggregated discovery by Accept', async () => {
    await h.custom.createClusterCustomObject({
      group: 'karpenter.sh',
      version: 'v1',
      plural: 'nodepools',
      body: nodePool('table'),
    });
    const res = await fetchWithAccept(
      h,
      '/apis/karpenter.sh/v1/nodepools',
      'application/json;as=Table;v=v1;g=meta.k8s.io',
    );
    const table = JSON.parse(res) as {
      kind: string;
      columnDefinitions: Array<{ name: string }>;
      rows: Array<{ cells: unknown[]; object: { metadata: { name: string } } }>;
    };
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions.map((c) => c.name)).toEqual([
      'Name',
      'NodeClass',
      'Nodes',
      'Ready',
      'Age',
      'Weight',
      'CPU',
      'Memory',
    ]);
    expect(table.rows.some((r) => r.object.metadata.name === 'table' && r.cells[1] === 'default')).toBe(true);
    const agg = JSON.parse(
      await fetchWithAccept(
        h,
        '/apis',
        'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
      ),
    ) as { kind: string; items: Array<{ metadata: { name: string } }> };
    expect(agg.kind).toBe('APIGroupDiscoveryList');
    expect(agg.items.map((i) => i.metadata.name)).toContain('karpenter.sh');
  });

  it('injects errors by verb and resource, and latency', async () => {
    const remove = h.server.faults.addError({ verb: 'create', resource: 'configmaps', code: 500, rate: 1 });
    const e = await failure(() =>
      h.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'faulty' } } }),
    );
    expect(statusOf(e)).toBe(500);
    await h.core.listNamespacedConfigMap({ namespace: 'default' });
    remove();
    await h.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'faulty' } } });
    h.server.faults.setLatency(150);
    const t0 = Date.now();
    await h.core.readNamespacedConfigMap({ name: 'faulty', namespace: 'default' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    h.server.faults.clear();
  });
});

async function fetchWithAccept(harness: Harness, path: string, acceptHeader: string): Promise<string> {
  const https = await import('node:https');
  const u = new URL(harness.server.url);
  return new Promise((resolve, reject) => {
    https
      .get(
        {
          hostname: u.hostname,
          port: u.port,
          path,
          ca: harness.server.caPem,
          headers: { accept: acceptHeader, authorization: `Bearer ${harness.server.token}` },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve(body));
        },
      )
      .on('error', reject);
  });
}

describe('large lists', () => {
  it('returns every item of a list larger than one streamed chunk', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'big' } } });
    // The objects are made in process (2,300 HTTPS round trips would be most of the test); the list goes over HTTPS.
    const local = new KubeClient(inProcessTransport(h.server));
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < 2300)
          await local.create(Resources.configMaps, { metadata: { name: `cm-${next++}`, namespace: 'big' } });
      }),
    );
    const list = await h.client.list(Resources.configMaps, { namespace: 'big' });
    expect(list.items).toHaveLength(2300);
    expect(new Set(list.items.map((o) => o.metadata.name)).size).toBe(2300);
  });
});
