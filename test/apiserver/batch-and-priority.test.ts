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

async function get(path: string, accept: string): Promise<string> {
  const https = await import('node:https');
  const u = new URL(h.server.url);
  return new Promise((resolve, reject) => {
    https
      .get(
        {
          hostname: u.hostname,
          port: u.port,
          path,
          ca: h.server.caPem,
          headers: { accept, authorization: `Bearer ${h.server.token}` },
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

const job = (name: string, restartPolicy?: string): k8s.V1Job => ({
  metadata: { name },
  spec: {
    template: {
      spec: { ...(restartPolicy ? { restartPolicy } : {}), containers: [{ name: 'work', image: 'busybox:1.36' }] },
    },
  },
});

describe('batch/v1 Jobs', () => {
  it("orphans a Job's pods when the delete names no policy, as kube does for batch/v1, and cascades with Background", async () => {
    const batch = h.kc.makeApiClient(k8s.BatchV1Api);
    const owned = async (jobName: string): Promise<string> => {
      const j = await batch.createNamespacedJob({ namespace: 'default', body: job(jobName, 'Never') });
      const owner = {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: jobName,
        uid: j.metadata?.uid ?? '',
        controller: true,
        blockOwnerDeletion: true,
      };
      const p = pod(`${jobName}-pod`);
      await h.core.createNamespacedPod({
        namespace: 'default',
        body: { ...p, metadata: { ...p.metadata, ownerReferences: [owner] } },
      });
      return `${jobName}-pod`;
    };
    const kept = await owned('orphaning');
    await batch.deleteNamespacedJob({ name: 'orphaning', namespace: 'default' });
    const survivor = await h.core.readNamespacedPod({ name: kept, namespace: 'default' });
    expect(survivor.metadata?.ownerReferences ?? []).toEqual([]);
    const cascaded = await owned('cascading');
    await batch.deleteNamespacedJob({ name: 'cascading', namespace: 'default', propagationPolicy: 'Background' });
    expect(statusOf(await failure(() => h.core.readNamespacedPod({ name: cascaded, namespace: 'default' })))).toBe(404);
  });

  it('serves Jobs with kube defaults, a generated selector and the kubectl columns', async () => {
    const batch = h.kc.makeApiClient(k8s.BatchV1Api);
    const created = await batch.createNamespacedJob({ namespace: 'default', body: job('pi', 'Never') });
    const uid = created.metadata?.uid ?? '';
    expect(created.spec?.completions).toBe(1);
    expect(created.spec?.parallelism).toBe(1);
    expect(created.spec?.backoffLimit).toBe(6);
    expect(created.spec?.selector?.matchLabels).toEqual({ 'batch.kubernetes.io/controller-uid': uid });
    expect(created.spec?.template.metadata?.labels?.['job-name']).toBe('pi');
    await batch.patchNamespacedJobStatus(
      {
        name: 'pi',
        namespace: 'default',
        body: {
          status: {
            startTime: '2026-01-01T00:00:00Z',
            completionTime: '2026-01-01T00:00:42Z',
            succeeded: 1,
            conditions: [{ type: 'Complete', status: 'True' }],
          },
        },
      },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    const table = JSON.parse(
      await get('/apis/batch/v1/namespaces/default/jobs', 'application/json;as=Table;v=v1;g=meta.k8s.io'),
    ) as {
      columnDefinitions: Array<{ name: string }>;
      rows: Array<{ cells: unknown[] }>;
    };
    expect(table.columnDefinitions.map((c) => c.name)).toEqual([
      'Name',
      'Status',
      'Completions',
      'Duration',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ]);
    expect(table.rows[0]?.cells.slice(0, 4)).toEqual(['pi', 'Complete', '1/1', '42s']);
    const agg = JSON.parse(
      await get('/apis', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json'),
    ) as {
      items: Array<{
        metadata: { name: string };
        versions: Array<{ resources: Array<{ resource: string; subresources?: Array<{ subresource: string }> }> }>;
      }>;
    };
    const jobs = agg.items
      .find((i) => i.metadata.name === 'batch')
      ?.versions[0]?.resources.find((r) => r.resource === 'jobs');
    expect(jobs?.subresources?.map((s) => s.subresource)).toEqual(['status']);
  });

  it('refuses a Job whose pods would restart Always', async () => {
    const e = await failure(() =>
      h.kc.makeApiClient(k8s.BatchV1Api).createNamespacedJob({ namespace: 'default', body: job('loop') }),
    );
    expect(statusOf(e)).toBe(422);
    expect(bodyOf(e).message).toContain(
      'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
    );
  });
});

describe('Priority admission', () => {
  it('resolves priorityClassName to spec.priority, applies the global default and refuses unknown classes', async () => {
    const scheduling = h.kc.makeApiClient(k8s.SchedulingV1Api);
    await scheduling.createPriorityClass({
      body: { metadata: { name: 'batch-low' }, value: -10, preemptionPolicy: 'Never' },
    });
    await scheduling.createPriorityClass({ body: { metadata: { name: 'everyday' }, value: 100, globalDefault: true } });
    const low = await h.core.createNamespacedPod({
      namespace: 'default',
      body: {
        ...pod('low'),
        spec: { ...pod('low').spec, containers: pod('low').spec?.containers ?? [], priorityClassName: 'batch-low' },
      },
    });
    expect(low.spec?.priority).toBe(-10);
    expect(low.spec?.preemptionPolicy).toBe('Never');
    const plain = await h.core.createNamespacedPod({ namespace: 'default', body: pod('plain') });
    expect(plain.spec?.priority).toBe(100);
    expect(plain.spec?.priorityClassName).toBe('everyday');
    const critical = await h.core.createNamespacedPod({
      namespace: 'default',
      body: {
        ...pod('crit'),
        spec: { containers: pod('crit').spec?.containers ?? [], priorityClassName: 'system-node-critical' },
      },
    });
    expect(critical.spec?.priority).toBe(2_000_001_000);
    const e = await failure(() =>
      h.core.createNamespacedPod({
        namespace: 'default',
        body: {
          ...pod('nope'),
          spec: { containers: pod('nope').spec?.containers ?? [], priorityClassName: 'missing' },
        },
      }),
    );
    expect(statusOf(e)).toBe(403);
    expect(bodyOf(e).message).toBe('pods "nope" is forbidden: no PriorityClass with name missing was found');
  });
});
