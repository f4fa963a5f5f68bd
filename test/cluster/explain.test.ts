/**
 * `tenon explain` against the real control plane: a NodePool whose EC2NodeClass does not exist, and a pod too large
 * for any instance type while `tenon controller --cloud-provider fake` runs (its FailedScheduling event and the
 * explanation say the same cause), also through `kubectl tenon explain` with the plugin on PATH.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExplain } from '../../src/cli/commands/explain.js';
import { Resources, type KubeObject } from '../../src/kube/index.js';
import { applyObjects, deleteObject, parseManifests } from '../../src/sim/scenario/apply.js';
import {
  clusterClient,
  clusterKubeconfig,
  eventually,
  fakeNodePool,
  freePort,
  startTenon,
  type TenonProcess,
} from './cluster.js';

const run = promisify(execFile);
const ns = 'tenon-explain';

const orphan = `
apiVersion: v1
kind: Namespace
metadata: {name: ${ns}}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: explain-orphan}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: explain-missing}
      requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]
---
apiVersion: v1
kind: Pod
metadata: {name: orphaned, namespace: ${ns}}
spec:
  nodeSelector: {karpenter.sh/nodepool: explain-orphan}
  containers: [{name: c, image: app, resources: {requests: {cpu: 500m, memory: 256Mi}}}]
`;

const tooBig = `
${fakeNodePool('explain-fake', ['m5.large', 'm5.xlarge'])}
---
apiVersion: v1
kind: Pod
metadata: {name: too-big, namespace: ${ns}}
spec:
  nodeSelector: {karpenter.sh/nodepool: explain-fake}
  containers: [{name: c, image: app, resources: {requests: {cpu: "500", memory: 1Gi}}}]
`;

interface Json {
  state: string;
  summary: string;
  cause: { constraint: string; object: string; numbers: Record<string, string> } | null;
  fix: string | null;
}

async function explainJson(name: string, extra: { cloudProvider?: string } = {}): Promise<{ code: number; j: Json }> {
  let text = '';
  const code = await runExplain(
    'pod',
    name,
    { kubeconfig: clusterKubeconfig(), output: 'json', ...extra },
    (t) => (text += t),
  );
  return { code, j: JSON.parse(text) as Json };
}

describe('tenon explain on a real control plane', () => {
  let cluster: Awaited<ReturnType<typeof clusterClient>>;
  let tenon: TenonProcess | undefined;
  let bin: string;

  beforeAll(async () => {
    cluster = await clusterClient();
    bin = mkdtempSync(join(tmpdir(), 'tenon-plugin-'));
    symlinkSync(join(process.cwd(), 'bin/kubectl-tenon.js'), join(bin, 'kubectl-tenon'));
  });

  afterAll(async () => {
    await tenon?.stop();
    rmSync(bin, { recursive: true, force: true });
    if (!cluster) return;
    await cluster.client.delete(Resources.namespaces, { name: ns }).catch(() => undefined);
    for (const ref of [
      { kind: 'NodePool', name: 'explain-orphan' },
      { kind: 'NodePool', name: 'explain-fake' },
      { kind: 'EC2NodeClass', name: 'explain-fake' },
    ])
      await deleteObject(cluster.client, cluster.discovery, ref).catch(() => undefined);
  });

  it('a NodePool whose EC2NodeClass does not exist: the pod says NodeClassNotFound', async () => {
    await applyObjects(cluster.client, cluster.discovery, parseManifests(orphan));
    const { code, j } = await explainJson(`${ns}/orphaned`);
    expect(code).toBe(0);
    expect(j.state).toBe('Pending');
    expect(j.summary).toBe(
      'NodePool `explain-orphan` cannot launch: EC2NodeClass `explain-missing` is not found on the cluster',
    );
    expect(j.cause).toMatchObject({
      constraint: 'nodeclass',
      object: 'EC2NodeClass/explain-missing',
      numbers: { reason: 'NodeClassNotFound' },
    });
    expect(j.fix).toMatch(/^fix EC2NodeClass `explain-missing`/);
    // The fake provider below launches without looking at EC2NodeClasses: nothing of this NodePool may remain.
    await deleteObject(cluster.client, cluster.discovery, { kind: 'Pod', namespace: ns, name: 'orphaned' });
    await deleteObject(cluster.client, cluster.discovery, { kind: 'NodePool', name: 'explain-orphan' });
  });

  it('a pod too large for the NodePool under `tenon controller --cloud-provider fake`: event and explanation agree', async () => {
    tenon = startTenon(['controller', '--cloud-provider', 'fake', '--kubeconfig', clusterKubeconfig()], {
      DISABLE_LEADER_ELECTION: 'true',
      HEALTH_PROBE_PORT: String(await freePort()),
      CLUSTER_NAME: 'test',
    });
    await applyObjects(cluster.client, cluster.discovery, parseManifests(tooBig));
    const event = await eventually(
      "Tenon's FailedScheduling event on too-big",
      async () =>
        (
          await cluster.client.list<KubeObject & { reason?: string; message?: string }>(Resources.events, {
            namespace: ns,
          })
        ).items.find((e) => e.reason === 'FailedScheduling' && e.message?.startsWith('Failed to schedule pod'))
          ?.message,
      60_000,
    ).catch((e: unknown) => {
      throw new Error(`${String(e)}\n--- tenon output (tail) ---\n${tenon?.output().slice(-3000) ?? ''}`);
    });
    const { code, j } = await explainJson(`${ns}/too-big`, { cloudProvider: 'fake' });
    expect(code).toBe(0);
    expect(j.summary).toMatch(
      /^needs 500 CPU and 1Gi; the largest instance type NodePool `explain-fake` allows \(m5\.xlarge\) has [\d.]+ CPU allocatable$/,
    );
    expect(j.cause).toMatchObject({ constraint: 'resources', object: 'NodePool/explain-fake' });
    expect(j.fix).toMatch(/^request at most [\d.]+ CPU per pod, or allow larger instance types/);
    expect(event).toContain(j.summary);
  });

  it('kubectl tenon explain: the real kubectl runs the plugin from PATH', async () => {
    const env = { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, KUBECONFIG: clusterKubeconfig() };
    const { stdout } = await run(
      'kubectl',
      ['tenon', 'explain', 'pod', 'too-big', '-n', ns, '--cloud-provider', 'fake'],
      { env, timeout: 60_000 },
    );
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`pod ${ns}/too-big: Pending`);
    expect(lines[1]).toMatch(/^needs 500 CPU and 1Gi; the largest instance type NodePool `explain-fake` allows/);
    expect(lines[2]).toMatch(/^fix: request at most/);
  });
});
