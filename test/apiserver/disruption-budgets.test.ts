/**
 * PodDisruptionBudgets on the embedded server as on a real cluster: the status the disruption controller keeps
 * (expected pods from the owning controller's scale, nothing allowed over pods without a controller) and the
 * eviction subresource that spends the budget.
 */
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, failure, pod, startHarness, statusOf, type Harness } from './helpers.js';

let h: Harness;
let policy: k8s.PolicyV1Api;
let apps: k8s.AppsV1Api;
beforeAll(async () => {
  h = await startHarness();
  policy = h.kc.makeApiClient(k8s.PolicyV1Api);
  apps = h.kc.makeApiClient(k8s.AppsV1Api);
});
afterAll(async () => {
  await h.server.close();
});

async function readyPods(namespace: string, names: string[], owner?: k8s.V1ReplicaSet): Promise<void> {
  for (const name of names) {
    const body = pod(name, { labels: { app: 'web' }, nodeName: 'n1' });
    if (owner)
      body.metadata = {
        ...body.metadata,
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: owner.metadata?.name ?? '',
            uid: owner.metadata?.uid ?? '',
            controller: true,
          },
        ],
      };
    await h.core.createNamespacedPod({ namespace, body });
    await h.core.patchNamespacedPodStatus(
      {
        name,
        namespace,
        body: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
      },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
  }
}

async function replicaSet(namespace: string, replicas: number): Promise<k8s.V1ReplicaSet> {
  return apps.createNamespacedReplicaSet({
    namespace,
    body: {
      metadata: { name: 'web' },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    },
  });
}

async function budget(namespace: string, spec: k8s.V1PodDisruptionBudgetSpec): Promise<void> {
  await policy.createNamespacedPodDisruptionBudget({
    namespace,
    body: { metadata: { name: 'b' }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec } },
  });
}

async function statusOnceObserved(namespace: string): Promise<k8s.V1PodDisruptionBudgetStatus | undefined> {
  let s: k8s.V1PodDisruptionBudgetStatus | undefined;
  await eventually(async () => {
    const pdb = await policy.readNamespacedPodDisruptionBudget({ name: 'b', namespace });
    s = pdb.status;
    return s?.observedGeneration === pdb.metadata?.generation;
  });
  return s;
}

const evict = (namespace: string, name: string): Promise<unknown> =>
  h.client.evict({ name, namespace }, { gracePeriodSeconds: 0 });

describe('budget status', () => {
  it('expects as many pods as the owning ReplicaSet asks for, not as many as exist', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'scale' } } });
    const rs = await replicaSet('scale', 4);
    await readyPods('scale', ['w1', 'w2', 'w3'], rs);
    await budget('scale', { maxUnavailable: 1 });
    expect(await statusOnceObserved('scale')).toMatchObject({
      expectedPods: 4,
      desiredHealthy: 3,
      currentHealthy: 3,
      disruptionsAllowed: 0,
    });
    // Scaling the owner down to the pods there are frees one disruption.
    await apps.patchNamespacedReplicaSetScale(
      { name: 'web', namespace: 'scale', body: { spec: { replicas: 3 } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await eventually(
      async () =>
        (await policy.readNamespacedPodDisruptionBudget({ name: 'b', namespace: 'scale' })).status
          ?.disruptionsAllowed === 1,
    );
  });

  it('allows nothing for a maxUnavailable budget over pods without a controller', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'bare' } } });
    await readyPods('bare', ['b1', 'b2', 'b3']);
    await budget('bare', { maxUnavailable: 1 });
    expect(await statusOnceObserved('bare')).toMatchObject({ expectedPods: 0, disruptionsAllowed: 0 });
    expect(statusOf(await failure(() => evict('bare', 'b1')))).toBe(429);
  });

  it('counts bare pods for an integer minAvailable', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'minimum' } } });
    await readyPods('minimum', ['m1', 'm2', 'm3']);
    await budget('minimum', { minAvailable: 2 });
    expect(await statusOnceObserved('minimum')).toMatchObject({ expectedPods: 3, disruptionsAllowed: 1 });
  });
});

describe('eviction', () => {
  it('spends the budget: a second eviction right after the first gets 429', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'spend' } } });
    const rs = await replicaSet('spend', 3);
    await readyPods('spend', ['s1', 's2', 's3'], rs);
    await budget('spend', { maxUnavailable: 1 });
    expect((await statusOnceObserved('spend'))?.disruptionsAllowed).toBe(1);
    await evict('spend', 's1');
    const e = await failure(() => evict('spend', 's2'));
    expect(statusOf(e)).toBe(429);
    const status = (e as { status: { details: { causes: Array<{ message: string }> } } }).status;
    expect(status.details.causes[0]?.message).toBe('The disruption budget b needs 2 healthy pods and has 2 currently');
    const pods = await h.core.listNamespacedPod({ namespace: 'spend' });
    expect(pods.items.map((p) => p.metadata?.name).sort()).toEqual(['s2', 's3']);
  });

  it('refuses while the budget cannot be computed (a controller that is gone), and evicts pending pods', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'orphan' } } });
    const gone = { metadata: { name: 'gone', uid: '00000000-0000-4000-8000-000000000000' } } as k8s.V1ReplicaSet;
    await readyPods('orphan', ['o1'], gone);
    await h.core.createNamespacedPod({ namespace: 'orphan', body: pod('pending', { labels: { app: 'web' } }) });
    await budget('orphan', { maxUnavailable: 1 });
    await eventually(async () => {
      const s = (await policy.readNamespacedPodDisruptionBudget({ name: 'b', namespace: 'orphan' })).status;
      return s?.conditions?.[0]?.reason === 'SyncFailed';
    });
    const pdb = await policy.readNamespacedPodDisruptionBudget({ name: 'b', namespace: 'orphan' });
    expect(pdb.status?.conditions?.[0]?.message).toBe('found no controllers for pod "o1"');
    const e = await failure(() => evict('orphan', 'o1'));
    expect(statusOf(e)).toBe(429);
    const body = (e as { status: { details: { causes: Array<{ message: string }> } } }).status;
    expect(body.details.causes[0]?.message).toBe('The disruption budget b is still being processed by the server.');
    await evict('orphan', 'pending');
  });
});
