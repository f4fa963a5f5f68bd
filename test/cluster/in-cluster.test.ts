/**
 * `tenon controller` run as the chart runs it, in-cluster style: the chart's ServiceAccount and RBAC applied for
 * real, a token from the TokenRequest API and the cluster CA as the mounted files (a private mount namespace
 * binds them at /var/run/secrets/kubernetes.io/serviceaccount), KUBERNETES_SERVICE_HOST/PORT, and the
 * Deployment's environment. Token rotation, failover on a killed leader, and a paused leader that lost the lease.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Resources,
  type KubeClient,
  type Lease,
  type Node,
  type Pod,
  type ResourceType,
} from '../../src/kube/index.js';
import { applyObjects, deleteObject, parseManifests } from '../../src/sim/scenario/apply.js';
import { kubectl, renderChart, type Rendered } from './chart.js';
import { clusterClient, eventually, fakeNodePool, freePort } from './cluster.js';

const ns = 'tenon-in-cluster';
const saMount = '/var/run/secrets/kubernetes.io/serviceaccount';
let admin: KubeClient;
let discovery: Awaited<ReturnType<typeof clusterClient>>['discovery'];
let caPem = '';
let server = new URL('https://127.0.0.1');
let chartEnv: Record<string, string> = {};
const replicas: Replica[] = [];

interface Replica {
  child: ChildProcess;
  dir: string;
  port: number;
  output(): string;
  exited: Promise<number | null>;
}

/** A token for the chart's ServiceAccount, bound to a Secret so deleting the Secret revokes it. */
async function mintToken(secret: string): Promise<string> {
  const created = await admin.call<{ metadata: { uid: string } }>('create secret', {
    method: 'POST',
    path: `/api/v1/namespaces/${ns}/secrets`,
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: secret } },
  });
  const req = {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: {
      expirationSeconds: 3600,
      boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: secret, uid: created.metadata.uid },
    },
  };
  const res = await admin.call<{ status: { token: string } }>('request token', {
    method: 'POST',
    path: `/api/v1/namespaces/${ns}/serviceaccounts/tenon/token`,
    body: req,
  });
  return res.status.token;
}

/** Writes the token as the kubelet does: a new file renamed over the old one. */
function writeToken(dir: string, token: string): void {
  writeFileSync(join(dir, '.token.new'), token);
  renameSync(join(dir, '.token.new'), join(dir, 'token'));
}

async function startReplica(secret: string): Promise<Replica> {
  const dir = mkdtempSync(join(tmpdir(), 'tenon-sa-'));
  writeToken(dir, await mintToken(secret));
  writeFileSync(join(dir, 'ca.crt'), caPem);
  writeFileSync(join(dir, 'namespace'), ns);
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    ...chartEnv,
    KUBERNETES_SERVICE_HOST: server.hostname,
    KUBERNETES_SERVICE_PORT: server.port,
    HEALTH_PROBE_PORT: String(port),
    METRICS_PORT: String(await freePort()),
    BIND_ADDRESS: '127.0.0.1',
  };
  const script = `mkdir -p ${saMount} && mount --bind "$0" ${saMount} && exec "$@"`;
  const child = spawn(
    'unshare',
    [
      '-m',
      '--propagation',
      'private',
      'sh',
      '-c',
      script,
      dir,
      process.execPath,
      join(process.cwd(), 'bin/tenon.js'),
      'controller',
      '--cloud-provider',
      'fake',
    ],
    { env },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const r = { child, dir, port, output: () => out, exited };
  replicas.push(r);
  return r;
}

function identity(r: Replica): string | undefined {
  return /"identity":"([^"]+)"/.exec(r.output())?.[1];
}

async function ready(r: Replica): Promise<void> {
  await eventually(
    'the replica to be Ready',
    async () =>
      (await fetch(`http://127.0.0.1:${r.port}/readyz`).then(
        (x) => x.ok,
        () => false,
      ))
        ? true
        : undefined,
    120_000,
  ).catch((e: unknown) => {
    throw new Error(`${String(e)}\n${r.output()}`);
  });
}

async function lease(): Promise<Lease> {
  return admin.get<Lease>(
    { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true },
    { name: 'tenon-leader-election', namespace: ns },
  );
}

async function holderIs(id: string | undefined): Promise<true | undefined> {
  return id && (await lease()).spec?.holderIdentity === id ? true : undefined;
}

beforeAll(async () => {
  const c = await clusterClient();
  admin = c.client;
  discovery = c.discovery;
  const cluster = c.kubeConfig.getCurrentCluster();
  server = new URL(cluster?.server ?? '');
  caPem = cluster?.caData ? Buffer.from(cluster.caData, 'base64').toString() : '';
  await kubectl(['create', 'namespace', ns]);
  const { objects } = await renderChart(ns, {
    'controller.cloudProvider': 'fake',
    'settings.clusterName': 'in-cluster',
  });
  const rbac = objects.filter((o) =>
    ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'].includes(o.kind),
  );
  await kubectl(['apply', '-f', '-'], rbac.map((o) => JSON.stringify(o)).join('\n'));
  const deployment = objects.find((o) => o.kind === 'Deployment') as Rendered & {
    spec: { template: { spec: { containers: Array<{ env: Array<{ name: string; value?: string }> }> } } };
  };
  chartEnv = Object.fromEntries(
    (deployment.spec.template.spec.containers[0]?.env ?? []).map((e) => [e.name, e.value ?? ns]),
  );
}, 1_800_000);

afterAll(async () => {
  for (const r of replicas) r.child.kill('SIGKILL');
  await kubectl(['delete', 'namespace', ns, '--wait=false']).catch(() => '');
  await kubectl(['delete', 'clusterrole,clusterrolebinding', '-l', 'app.kubernetes.io/instance=tenon']).catch(() => '');
  await kubectl([
    'delete',
    'role,rolebinding',
    '-n',
    'kube-node-lease',
    '-l',
    'app.kubernetes.io/instance=tenon',
  ]).catch(() => '');
});

const pool = 'in-cluster-fake';
const poolManifests = `
${fakeNodePool(pool, ['m5.large'])}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ${ns}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {karpenter.sh/nodepool: ${pool}}
      terminationGracePeriodSeconds: 1
      containers:
        - {name: web, image: nginx, resources: {requests: {cpu: 900m, memory: 512Mi}}}
`;

const alive = (r: Replica): boolean => r.child.exitCode === null && r.child.signalCode === null;

async function poolNodes(): Promise<Node[]> {
  return (await admin.list(Resources.nodes as ResourceType<Node>, { labelSelector: `karpenter.sh/nodepool=${pool}` }))
    .items;
}

describe('tenon controller in-cluster, as the chart runs it', () => {
  it("leads with the chart's least-privilege ServiceAccount and keeps leading across a token rotation", async () => {
    const a = await startReplica('token-a1');
    await ready(a);
    await eventually('replica A to lead', () => holderIs(identity(a)));
    // Rotation: a new token in the mounted file, and the old one revoked by deleting the object it is bound to.
    writeToken(a.dir, await mintToken('token-a2'));
    await admin.call('delete secret', { method: 'DELETE', path: `/api/v1/namespaces/${ns}/secrets/token-a1` });
    const revokedAt = Date.now();
    // Renewals carry on with the new token: the Lease is renewed well after the old token stopped working.
    await eventually(
      'a renewal with the rotated token',
      async () => {
        const renewed = Date.parse((await lease()).spec?.renewTime ?? '');
        return renewed > revokedAt + 6_000 ? true : undefined;
      },
      60_000,
    );
    expect(a.child.exitCode).toBeNull();
    expect(a.output()).not.toMatch(/leader election lost/);
    await holderIs(identity(a)).then((held) => expect(held).toBe(true));
  });

  it('fails over within the lease duration when the leader is killed, and a paused leader writes nothing after losing the lease', async () => {
    const a = replicas[0];
    if (!a) throw new Error('replica A did not start');
    const b = await startReplica('token-b');
    await ready(b);
    expect(await holderIs(identity(a))).toBe(true);

    a.child.kill('SIGKILL');
    const killedAt = Date.now();
    await eventually('replica B to take over', () => holderIs(identity(b)), 60_000);
    const failoverMs = Date.now() - killedAt;
    console.log(`failover after SIGKILL of the leader: ${(failoverMs / 1000).toFixed(1)} s`);
    // client-go's bound: a lease duration after the standby last saw a renew, seen on its 2 s retry period.
    expect(failoverMs).toBeLessThanOrEqual(15_000 + 2 * 2_000);

    const c = await startReplica('token-c');
    await ready(c);
    b.child.kill('SIGSTOP');
    const pausedAt = Date.now();
    await eventually('replica C to take over from the paused leader', () => holderIs(identity(c)), 60_000);
    console.log(`takeover from a paused leader: ${((Date.now() - pausedAt) / 1000).toFixed(1)} s`);
    const before = await lease();
    b.child.kill('SIGCONT');
    // B wakes past its renew deadline: it must not write (not even the Lease) and must exit.
    expect(await b.exited).toBe(1);
    const after = await lease();
    expect(after.spec?.holderIdentity).toBe(identity(c));
    expect(after.spec?.leaseTransitions).toBe(before.spec?.leaseTransitions);
    expect(b.output()).toMatch(/leader election lost/);
  });

  it("provisions with the chart's ServiceAccount: the fake cloud's kubelets register Nodes and run the pods", async () => {
    const live = replicas.filter(alive);
    if (live.length === 0) live.push(await startReplica('token-d'));
    for (const r of live) await ready(r);
    const leader = await eventually('a live replica to lead', async () => {
      const holder = (await lease()).spec?.holderIdentity;
      return live.find((r) => identity(r) === holder);
    });
    await applyObjects(admin, discovery, parseManifests(poolManifests));
    try {
      await eventually(
        "both pods Running on the pool's nodes",
        async () => {
          const pods = (await admin.list(Resources.pods as ResourceType<Pod>, { namespace: ns })).items;
          const running = pods.filter((p) => p.status?.phase === 'Running' && p.spec?.nodeName);
          return running.length === 2 ? true : undefined;
        },
        120_000,
      ).catch((e: unknown) => {
        throw new Error(`${String(e)}\n--- leader output (tail) ---\n${leader.output().slice(-4000)}`);
      });
      const nodes = await poolNodes();
      expect(nodes.length).toBeGreaterThan(0);
      for (const n of nodes) expect(n.spec?.providerID).toMatch(/^fake:\/\/\//);
      // Every write of the fake cloud was allowed: nothing was refused for the ServiceAccount.
      expect(leader.output()).not.toMatch(/forbidden/i);
    } finally {
      await deleteObject(admin, discovery, { kind: 'Deployment', namespace: ns, name: 'web' }).catch(() => undefined);
      await deleteObject(admin, discovery, { kind: 'NodePool', name: pool }).catch(() => undefined);
      await eventually(
        "the pool's nodes to be gone",
        async () => ((await poolNodes()).length === 0 ? true : undefined),
        120_000,
      ).catch(() => undefined);
      await deleteObject(admin, discovery, { kind: 'EC2NodeClass', name: pool }).catch(() => undefined);
    }
  });
});
