/**
 * What a Pod looks like after create on the embedded server, as on kube-apiserver v1.33: ServiceAccount
 * admission, the default not-ready/unreachable tolerations, requests defaulted from limits and the QoS class;
 * pod templates keep only the pod-spec defaults.
 */
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ serviceAccountTokenVolumes: true });
  await h.core.createNamespace({ body: { metadata: { name: 'adm' } } });
});
afterAll(async () => {
  await h.server.close();
});

const create = (name: string, spec: Partial<k8s.V1PodSpec>, resources?: k8s.V1ResourceRequirements) =>
  h.core.createNamespacedPod({
    namespace: 'adm',
    body: {
      metadata: { name },
      spec: { containers: [{ name: 'c', image: 'busybox', resources }], ...spec },
    },
  });

describe('pod admission', () => {
  it('adds the default ServiceAccount, its token volume mounted in every container, and the default tolerations', async () => {
    const p = await h.core.createNamespacedPod({
      namespace: 'adm',
      body: {
        metadata: { name: 'plain' },
        spec: {
          initContainers: [{ name: 'init', image: 'busybox' }],
          containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '100m' } } }],
        },
      },
    });
    expect(p.spec?.serviceAccountName).toBe('default');
    expect(p.spec?.serviceAccount).toBe('default');
    const volume = p.spec?.volumes?.[0];
    expect(volume?.name).toMatch(/^kube-api-access-[a-z0-9]{5}$/);
    expect(volume?.projected?.sources?.[0]?.serviceAccountToken).toEqual({ expirationSeconds: 3607, path: 'token' });
    for (const c of [...(p.spec?.initContainers ?? []), ...(p.spec?.containers ?? [])])
      expect(c.volumeMounts).toEqual([
        { name: volume?.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
      ]);
    expect(p.spec?.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    expect(p.status?.qosClass).toBe('Burstable');
  });

  it('sets the ServiceAccount but mounts no token volume on a server not asked to (the playground)', async () => {
    const plain = await startHarness();
    try {
      const p = await plain.core.createNamespacedPod({
        namespace: 'default',
        body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      });
      expect(p.spec?.serviceAccountName).toBe('default');
      expect(p.spec?.volumes).toBeUndefined();
      expect(p.spec?.tolerations).toHaveLength(2);
    } finally {
      await plain.server.close();
    }
  });

  it('mounts no token when automount is off and keeps a toleration the pod already has', async () => {
    const p = await create('quiet', {
      serviceAccountName: 'builder',
      automountServiceAccountToken: false,
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }],
    });
    expect(p.spec?.serviceAccountName).toBe('builder');
    expect(p.spec?.volumes).toBeUndefined();
    expect(p.spec?.containers[0]?.volumeMounts).toBeUndefined();
    expect(p.spec?.tolerations?.map((t) => `${t.key}:${t.tolerationSeconds ?? 'forever'}`)).toEqual([
      'node.kubernetes.io/not-ready:forever',
      'node.kubernetes.io/unreachable:300',
    ]);
    expect(p.status?.qosClass).toBe('BestEffort');
  });

  it('defaults requests from limits, which makes a pod with cpu and memory limits Guaranteed', async () => {
    const p = await create('fixed', {}, { limits: { cpu: '500m', memory: '256Mi' } });
    expect(p.spec?.containers[0]?.resources?.requests).toEqual({ cpu: '500m', memory: '256Mi' });
    expect(p.status?.qosClass).toBe('Guaranteed');
    const q = await create('capped', {}, { requests: { cpu: '100m' }, limits: { cpu: '500m', memory: '256Mi' } });
    expect(q.spec?.containers[0]?.resources?.requests).toEqual({ cpu: '100m', memory: '256Mi' });
    expect(q.status?.qosClass).toBe('Burstable');
  });
});

describe('stored defaults of workloads and budgets', () => {
  it('leaves pod-only defaults out of templates; a ReplicaSet has no history limit and 0 replicas in status', async () => {
    const apps = h.kc.makeApiClient(k8s.AppsV1Api);
    const rs = await apps.createNamespacedReplicaSet({
      namespace: 'adm',
      body: {
        metadata: { name: 'rs' },
        spec: {
          selector: { matchLabels: { a: 'b' } },
          template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
        },
      },
    });
    const tpl = rs.spec?.template?.spec;
    expect(tpl?.restartPolicy).toBe('Always');
    expect([tpl?.priority, tpl?.enableServiceLinks, tpl?.preemptionPolicy, tpl?.serviceAccountName]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(Object.keys(rs.spec ?? {})).not.toContain('revisionHistoryLimit');
    expect(rs.status).toEqual({ replicas: 0 });
  });

  it('answers a PodDisruptionBudget create with its status figures at zero', async () => {
    const policy = h.kc.makeApiClient(k8s.PolicyV1Api);
    const pdb = await policy.createNamespacedPodDisruptionBudget({
      namespace: 'adm',
      body: { metadata: { name: 'b' }, spec: { minAvailable: 1, selector: { matchLabels: { a: 'b' } } } },
    });
    expect(pdb.status).toEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
  });

  it('serves PodTemplates, whose container list a strategic merge patch merges by name', async () => {
    const t = await h.core.createNamespacedPodTemplate({
      namespace: 'adm',
      body: {
        metadata: { name: 'tpl' },
        template: {
          spec: {
            containers: [
              { name: 'a', image: 'a:1' },
              { name: 'b', image: 'b:1' },
            ],
          },
        },
      },
    });
    expect(t.template?.spec?.containers.map((c) => c.imagePullPolicy)).toEqual(['IfNotPresent', 'IfNotPresent']);
    const patched = await h.core.patchNamespacedPodTemplate(
      { name: 'tpl', namespace: 'adm', body: { template: { spec: { containers: [{ name: 'b', image: 'b:2' }] } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    expect(patched.template?.spec?.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['a=a:1', 'b=b:2']);
  });
});
