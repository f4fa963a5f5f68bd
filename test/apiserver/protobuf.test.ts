/** Protobuf request bodies: kubectl 1.32+ imperative `create` commands, and a clear 415 for what is not decoded. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '../../src/apiserver/index.js';
import { hasKubectl, kubectlFor, type Kubectl } from './kubectl-helpers.js';
import { startHarness, type Harness } from './helpers.js';
import { richPodYaml } from './rich-pod.js';

// Minimal protobuf encoding for hand-made bodies: length-delimited fields and varints.
function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return Buffer.from(out);
}

function bytesField(field: number, value: Buffer | string): Buffer {
  const b = typeof value === 'string' ? Buffer.from(value) : value;
  return Buffer.concat([varint((field << 3) | 2), varint(b.length), b]);
}

function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  const typeMeta = Buffer.concat([bytesField(1, apiVersion), bytesField(2, kind)]);
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), bytesField(1, typeMeta), bytesField(2, raw)]);
}

async function post(
  h: Harness,
  path: string,
  body: Buffer,
): Promise<{ status: number; body: { reason?: string; message?: string } }> {
  const res = await h.client.transport.request({
    method: 'POST',
    path,
    body: body.toString('latin1'),
    contentType: 'application/vnd.kubernetes.protobuf',
  });
  return { status: res.status, body: JSON.parse(res.body) as { reason?: string; message?: string } };
}

async function get(h: Harness, path: string): Promise<Record<string, unknown>> {
  return JSON.parse((await h.client.transport.request({ method: 'GET', path })).body) as Record<string, unknown>;
}

// The value with every empty object (and what becomes empty without them) left out.
function withoutEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutEmpty);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const y = withoutEmpty(x);
    if (!(typeof y === 'object' && y !== null && !Array.isArray(y) && Object.keys(y).length === 0)) out[k] = y;
  }
  return out;
}

// A throwaway certificate and key for `create secret tls` (openssl, as kubectl users make them).
function selfSigned(): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tenon-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      join(dir, 'k'),
      '-out',
      join(dir, 'c'),
      '-days',
      '1',
      '-subj',
      '/CN=test',
    ],
    { stdio: 'ignore' },
  );
  const out = { cert: readFileSync(join(dir, 'c'), 'utf8'), key: readFileSync(join(dir, 'k'), 'utf8') };
  rmSync(dir, { recursive: true, force: true });
  return out;
}

for (const version of ['1.32', '1.33']) {
  describe.runIf(hasKubectl(version))(`kubectl ${version} create (protobuf bodies)`, () => {
    let h: Harness;
    let server: ApiServer;
    let k: Kubectl;
    beforeAll(async () => {
      h = await startHarness({ kubernetesVersion: `v${version}.2` });
      server = h.server;
      k = kubectlFor(server, version);
    });
    afterAll(async () => {
      k.dispose();
      await server.close();
    });

    it('creates namespaces, configmaps, secrets, deployments, services, service accounts, priority classes and PDBs', async () => {
      const commands = [
        ['create', 'namespace', 'shop'],
        ['-n', 'shop', 'create', 'configmap', 'settings', '--from-literal=mode=fast', '--from-literal=level=3'],
        ['-n', 'shop', 'create', 'secret', 'generic', 'token', '--from-literal=key=s3cret'],
        [
          '-n',
          'shop',
          'create',
          'deployment',
          'web',
          '--image=nginx:1.27',
          '--replicas=3',
          '--port=8080',
          '--',
          'sleep',
          'inf',
        ],
        ['-n', 'shop', 'create', 'service', 'clusterip', 'web', '--tcp=80:8080'],
        ['-n', 'shop', 'create', 'serviceaccount', 'robot'],
        ['create', 'priorityclass', 'high', '--value=1000', '--description=important'],
        ['-n', 'shop', 'create', 'pdb', 'web', '--selector=app=web', '--min-available=50%'],
      ];
      for (const args of commands) {
        const r = await k.run(args);
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
      }
      const ns = await h.core.readNamespace({ name: 'shop' });
      expect(ns.spec?.finalizers).toEqual(['kubernetes']);
      expect((await h.core.readNamespacedConfigMap({ name: 'settings', namespace: 'shop' })).data).toEqual({
        mode: 'fast',
        level: '3',
      });
      const secret = await h.core.readNamespacedSecret({ name: 'token', namespace: 'shop' });
      expect(secret.type).toBe('Opaque');
      expect(Buffer.from(secret.data?.key ?? '', 'base64').toString()).toBe('s3cret');
      const web = (
        await h.client.transport.request({ method: 'GET', path: '/apis/apps/v1/namespaces/shop/deployments/web' })
      ).body;
      expect(JSON.parse(web)).toMatchObject({
        metadata: { labels: { app: 'web' } },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'web' } },
          strategy: { type: 'RollingUpdate' },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              containers: [
                { name: 'nginx', image: 'nginx:1.27', command: ['sleep', 'inf'], ports: [{ containerPort: 8080 }] },
              ],
            },
          },
        },
      });
      const svc = await h.core.readNamespacedService({ name: 'web', namespace: 'shop' });
      expect(svc.spec).toMatchObject({
        type: 'ClusterIP',
        selector: { app: 'web' },
        ports: [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }],
      });
      expect((await h.core.readNamespacedServiceAccount({ name: 'robot', namespace: 'shop' })).metadata?.name).toBe(
        'robot',
      );
      const pc = JSON.parse(
        (await h.client.transport.request({ method: 'GET', path: '/apis/scheduling.k8s.io/v1/priorityclasses/high' }))
          .body,
      ) as Record<string, unknown>;
      expect(pc).toMatchObject({ value: 1000, description: 'important', preemptionPolicy: 'PreemptLowerPriority' });
      const pdb = JSON.parse(
        (
          await h.client.transport.request({
            method: 'GET',
            path: '/apis/policy/v1/namespaces/shop/poddisruptionbudgets/web',
          })
        ).body,
      ) as Record<string, unknown>;
      expect(pdb).toMatchObject({ spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } } });
    });

    it('decodes every option of the create subcommands for served kinds', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tenon-pb-'));
      writeFileSync(join(dir, 'motd.txt'), 'hello\n');
      writeFileSync(join(dir, 'blob.bin'), Buffer.from([0, 255, 1, 254]));
      writeFileSync(join(dir, 'app.env'), 'A=1\nB=two\n');
      const pem = selfSigned();
      writeFileSync(join(dir, 'tls.crt'), pem.cert);
      writeFileSync(join(dir, 'tls.key'), pem.key);
      const commands = [
        [
          'create',
          'configmap',
          'files',
          `--from-file=${join(dir, 'motd.txt')}`,
          `--from-file=blob=${join(dir, 'blob.bin')}`,
        ],
        ['create', 'configmap', 'envs', `--from-env-file=${join(dir, 'app.env')}`],
        ['create', 'secret', 'tls', 'cert', `--cert=${join(dir, 'tls.crt')}`, `--key=${join(dir, 'tls.key')}`],
        [
          'create',
          'secret',
          'docker-registry',
          'pull',
          '--docker-username=u',
          '--docker-password=p',
          '--docker-server=r.example.com',
        ],
        ['create', 'secret', 'generic', 'typed', '--type=example.com/kind', `--from-file=${join(dir, 'motd.txt')}`],
        ['create', 'deployment', 'idle', '--image=nginx', '--image=busybox', '--replicas=0', '--port=80'],
        ['create', 'job', 'once', '--image=busybox', '--', 'echo', 'hi'],
        ['create', 'service', 'nodeport', 'np', '--tcp=80:8080', '--node-port=30080'],
        ['create', 'service', 'externalname', 'ext', '--external-name=db.example.com'],
        ['create', 'service', 'clusterip', 'headless', '--clusterip=None'],
        ['create', 'priorityclass', 'never', '--value=0', '--global-default', '--preemption-policy=Never'],
        ['create', 'pdb', 'spread', '--selector=tier=web,zone in (a,b)', '--max-unavailable=1'],
      ];
      for (const args of commands) expect((await k.run(args)).stderr, args.join(' ')).toBe('');
      rmSync(dir, { recursive: true, force: true });
      const files = await h.core.readNamespacedConfigMap({ name: 'files', namespace: 'default' });
      expect(files.data).toEqual({ 'motd.txt': 'hello\n' });
      expect(files.binaryData).toEqual({ blob: Buffer.from([0, 255, 1, 254]).toString('base64') });
      expect((await h.core.readNamespacedConfigMap({ name: 'envs', namespace: 'default' })).data).toEqual({
        A: '1',
        B: 'two',
      });
      const cert = await h.core.readNamespacedSecret({ name: 'cert', namespace: 'default' });
      expect(cert.type).toBe('kubernetes.io/tls');
      expect(Object.keys(cert.data ?? {}).sort()).toEqual(['tls.crt', 'tls.key']);
      expect((await h.core.readNamespacedSecret({ name: 'pull', namespace: 'default' })).type).toBe(
        'kubernetes.io/dockerconfigjson',
      );
      expect((await h.core.readNamespacedSecret({ name: 'typed', namespace: 'default' })).type).toBe(
        'example.com/kind',
      );
      const idle = await get(h, '/apis/apps/v1/namespaces/default/deployments/idle');
      expect(idle).toMatchObject({
        spec: {
          replicas: 0,
          template: { spec: { containers: [{ name: 'nginx', ports: [{ containerPort: 80 }] }, { name: 'busybox' }] } },
        },
      });
      expect(await get(h, '/apis/batch/v1/namespaces/default/jobs/once')).toMatchObject({
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ command: ['echo', 'hi'] }] } } },
      });
      expect((await h.core.readNamespacedService({ name: 'np', namespace: 'default' })).spec).toMatchObject({
        type: 'NodePort',
        ports: [{ port: 80, targetPort: 8080, nodePort: 30080 }],
      });
      expect((await h.core.readNamespacedService({ name: 'ext', namespace: 'default' })).spec).toMatchObject({
        type: 'ExternalName',
        externalName: 'db.example.com',
      });
      expect((await h.core.readNamespacedService({ name: 'headless', namespace: 'default' })).spec).toMatchObject({
        clusterIP: 'None',
      });
      expect(await get(h, '/apis/scheduling.k8s.io/v1/priorityclasses/never')).toMatchObject({
        value: 0,
        globalDefault: true,
        preemptionPolicy: 'Never',
      });
      expect(await get(h, '/apis/policy/v1/namespaces/default/poddisruptionbudgets/spread')).toMatchObject({
        spec: {
          maxUnavailable: 1,
          selector: {
            matchLabels: { tier: 'web' },
            matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }],
          },
        },
      });
    });

    it('creates the pods kubectl debug sends, keeping every PodSpec field of a copied pod', async () => {
      expect((await k.run(['apply', '-f', '-'], 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n')).code).toBe(0);
      expect((await k.run(['apply', '-f', '-'], richPodYaml)).stderr).toBe('');
      const copy = await k.run([
        'debug',
        'rich',
        '--image=busybox',
        '--container=dbg',
        '--copy-to=rich-copy',
        '--same-node',
        '--keep-liveness',
        '--keep-readiness',
        '--keep-startup',
      ]);
      expect(copy.stderr).not.toContain('rror');
      const original = (await get(h, '/api/v1/namespaces/default/pods/rich')).spec as { containers: unknown[] };
      const copied = (await get(h, '/api/v1/namespaces/default/pods/rich-copy')).spec as {
        containers: Array<{ name: string }>;
      };
      expect(copied.containers.map((c) => c.name)).toEqual(['app', 'dbg']);
      // Go's JSON writes struct fields even when empty (resources: {}); they carry nothing to compare.
      expect(withoutEmpty({ ...copied, containers: copied.containers.slice(0, 1) })).toEqual(withoutEmpty(original));

      const node = await k.run(['debug', 'node/n1', '--image=busybox', '--profile=general']);
      expect(node.stderr).not.toContain('rror');
      const pods = await h.core.listNamespacedPod({ namespace: 'default' });
      const debugger_ = pods.items.find((p) => p.metadata?.name?.startsWith('node-debugger-n1-'));
      expect(debugger_?.spec).toMatchObject({
        nodeName: 'n1',
        hostNetwork: true,
        hostPID: true,
        hostIPC: true,
        restartPolicy: 'Never',
        volumes: [{ name: 'host-root', hostPath: { path: '/' } }],
      });
    });

    it('answers NotFound naming the resource for kinds this server does not serve', async () => {
      const cases: Array<[string[], string]> = [
        [
          ['create', 'role', 'reader', '--verb=get', '--resource=pods'],
          'roles.rbac.authorization.k8s.io/v1 is not served by this API server',
        ],
        [['create', 'quota', 'small', '--hard=pods=3'], 'resourcequotas/v1 is not served by this API server'],
        [['create', 'token', 'default'], 'serviceaccounts/token is not served by this API server'],
        [
          ['create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/5 * * * *'],
          'cronjobs.batch/v1 is not served by this API server',
        ],
      ];
      for (const [args, message] of cases) {
        const r = await k.run(args);
        expect(r.code, args.join(' ')).not.toBe(0);
        expect(r.stderr).toContain(message);
      }
    });
  });
}

describe('protobuf bodies this server does not decode', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });

  it('answers 415 naming the kinds it decodes for any other kind', async () => {
    const meta = bytesField(1, bytesField(1, 'reader'));
    const r = await post(
      h,
      '/api/v1/namespaces/default/configmaps',
      envelope('rbac.authorization.k8s.io/v1', 'Role', meta),
    );
    expect(r.status).toBe(415);
    expect(r.body.reason).toBe('UnsupportedMediaType');
    expect(r.body.message).toContain('send rbac.authorization.k8s.io/v1 Role as JSON instead');
    expect(r.body.message).toContain('apps/v1/StatefulSet');
  });

  it('answers 415 for a field it does not know rather than dropping it', async () => {
    const meta = bytesField(1, bytesField(1, 'odd'));
    const r = await post(
      h,
      '/api/v1/namespaces/default/configmaps',
      envelope('v1', 'ConfigMap', Buffer.concat([meta, bytesField(9, 'x')])),
    );
    expect(r.status).toBe(415);
    expect(r.body.message).toContain('cannot decode field 9 of ConfigMap');
    const list = await h.core.listNamespacedConfigMap({ namespace: 'default' });
    expect(list.items.map((c) => c.metadata?.name)).not.toContain('odd');
  });
});
