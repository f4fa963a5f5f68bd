/**
 * CapacityBuffers through the controllers (embedded API server, fake cloud): a buffer's pod shape comes from a
 * PodTemplate (podTemplateRef) or from the object a scalableRef names, of any kind with a scale subresource (the
 * newest running pod it selects) or the kinds the autoscaler reads by template; the status says what it resolved
 * to, with the cluster-autoscaler's condition reasons, and its units are launched for with no real pod pending.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CapacityBuffer } from '../../src/api/index.js';
import { Resources, type KubeObject, type Pod } from '../../src/kube/index.js';
import type { StoredCapacityBuffer, StoredPodTemplate } from '../../src/state/informers.js';
import { createNodePool, eventually, nodeClaims, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
  await createNodePool(h);
});
afterEach(async () => {
  await h.stop();
});

const podSpec = (cpu: string, extra: Pod['spec']['containers'] = []): Pod['spec'] => ({
  containers: [{ name: 'app', image: 'app', resources: { requests: { cpu, memory: '1Gi' } } }, ...extra],
});

async function buffer(name: string, spec: CapacityBuffer['spec']): Promise<void> {
  await h.client.create<StoredCapacityBuffer>(Resources.capacityBuffers, {
    metadata: { name, namespace: 'default' },
    spec,
  } as StoredCapacityBuffer);
}

/** The buffer once its ReadyForProvisioning condition has the wanted status. */
async function settled(name: string, status: 'True' | 'False'): Promise<StoredCapacityBuffer> {
  return eventually(
    h,
    `buffer ${name} ReadyForProvisioning=${status}`,
    async () => {
      const b = await h.client.get<StoredCapacityBuffer>(Resources.capacityBuffers, { name, namespace: 'default' });
      const c = b.status?.conditions?.find((x) => x.type === 'ReadyForProvisioning');
      return c?.status === status ? b : undefined;
    },
    { advanceMs: 1_000 },
  );
}

const condition = (b: StoredCapacityBuffer): { reason?: string; message?: string } | undefined =>
  b.status?.conditions?.find((x) => x.type === 'ReadyForProvisioning');

describe('CapacityBuffer (e2e)', () => {
  it('a podTemplateRef buffer launches room for its units with no pod pending', async () => {
    await h.client.create<StoredPodTemplate>(Resources.podTemplates, {
      metadata: { name: 'batch-shape', namespace: 'default' },
      template: { metadata: { labels: { app: 'batch' } }, spec: podSpec('3') },
    });
    await buffer('batch-room', { podTemplateRef: { name: 'batch-shape' }, replicas: 2 });
    const b = await settled('batch-room', 'True');
    expect(condition(b)).toMatchObject({ reason: 'AttributesSetSuccessfully', message: 'ready' });
    expect(b.status).toMatchObject({ replicas: 2, podTemplateRef: { name: 'batch-shape' } });
    const claims = await eventually(
      h,
      'NodeClaims for the buffer',
      async () => {
        const all = await nodeClaims(h);
        return all.length > 0 ? all : undefined;
      },
      { advanceMs: 1_000 },
    );
    // Two 3-CPU units need 6 CPUs of room: more than one small node.
    const cpu = claims.reduce((n, nc) => n + Number(nc.spec.resources?.requests?.cpu ?? '0'), 0);
    expect(cpu).toBeGreaterThanOrEqual(6);
  });

  it('a podTemplateRef naming no PodTemplate is not ready, with the reason and message upstream gives', async () => {
    await buffer('lost', { podTemplateRef: { name: 'nowhere' }, replicas: 1 });
    const b = await settled('lost', 'False');
    expect(condition(b)).toMatchObject({
      reason: 'error',
      message: 'Couldn\'t get pod template, error: podtemplates "nowhere" not found',
    });
    expect(await nodeClaims(h)).toEqual([]);
  });

  it('a StatefulSet with no pod running yet is read by its template; the shape is kept in a PodTemplate', async () => {
    await h.client.create<KubeObject & { spec: unknown }>(Resources.statefulSets, {
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        replicas: 4,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: podSpec('1') },
      },
    });
    await buffer('db-room', { scalableRef: { apiGroup: 'apps', kind: 'StatefulSet', name: 'db' }, percentage: 50 });
    const ready = await settled('db-room', 'True');
    expect(ready.status?.podTemplateRef?.name).toBe('capacitybuffer-db-room-pod-template');
    // Once the shape is kept, the count comes from the scale's status.replicas, as upstream: this harness runs no
    // StatefulSet controller, so the test reports the 4 replicas it would, and the buffer takes 50% of them.
    const sts = await h.client.get<KubeObject & { spec: unknown; status?: { replicas?: number } }>(
      Resources.statefulSets,
      {
        name: 'db',
        namespace: 'default',
      },
    );
    await h.client.update<typeof sts>(Resources.statefulSets, { ...sts, status: { replicas: 4 } }, 'status');
    const b = await eventually(
      h,
      'buffer db-room at 2 replicas',
      async () => {
        const x = await h.client.get<StoredCapacityBuffer>(Resources.capacityBuffers, {
          name: 'db-room',
          namespace: 'default',
        });
        return x.status?.replicas === 2 ? x : undefined;
      },
      { advanceMs: 1_000 },
    );
    expect(condition(b)?.reason).toBe('AttributesSetSuccessfully');
    const kept = await h.client.get<StoredPodTemplate>(Resources.podTemplates, {
      name: 'capacitybuffer-db-room-pod-template',
      namespace: 'default',
    });
    expect(kept.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'CapacityBuffer', name: 'db-room' });
    expect(kept.template.spec.containers.map((c) => c.name)).toEqual(['app']);
  });

  it('through the scale subresource, the newest running pod is the shape (a sidecar the template lacks counts)', async () => {
    await h.client.create<KubeObject & { spec: unknown }>(Resources.deployments, {
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: podSpec('1') },
      },
    });
    const sidecar = [{ name: 'mesh', image: 'mesh', resources: { requests: { cpu: '500m', memory: '128Mi' } } }];
    await h.client.create<Pod>(Resources.pods, {
      metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web' } },
      spec: podSpec('1', sidecar),
    } as Pod);
    await h.client.patch<Pod>(
      Resources.pods,
      { name: 'web-1', namespace: 'default' },
      { status: { phase: 'Running' } },
      { subresource: 'status' },
    );
    await buffer('web-room', { scalableRef: { apiGroup: 'apps', kind: 'Deployment', name: 'web' }, replicas: 1 });
    const b = await settled('web-room', 'True');
    expect(b.status?.replicas).toBe(1);
    const kept = await h.client.get<StoredPodTemplate>(Resources.podTemplates, {
      name: 'capacitybuffer-web-room-pod-template',
      namespace: 'default',
    });
    expect(kept.template.spec.containers.map((c) => c.name)).toEqual(['app', 'mesh']);
  });

  it('a kind that is neither served with a scale subresource nor known is not ready, saying both', async () => {
    await buffer('odd', { scalableRef: { apiGroup: 'example.com', kind: 'Widget', name: 'w' }, replicas: 1 });
    const b = await settled('odd', 'False');
    expect(condition(b)?.message).toMatch(
      /^Couldn't resolve buffer odd, error resolving scale object: failed to get scale object: .*, and error resolving supported objects kind example.com\/Widget is not supported to use pod template$/,
    );
  });
});
