/** Protobuf request bodies: kubectl 1.32+ imperative `create` commands, and a clear 415 for what is not decoded. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '../../src/apiserver/index.js';
import { hasKubectl, kubectlFor, type Kubectl } from './kubectl-helpers.js';
import { startHarness, type Harness } from './helpers.js';

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

async function post(h: Harness, path: string, body: Buffer): Promise<{ status: number; body: { reason?: string; message?: string } }> {
  const res = await h.client.transport.request({ method: 'POST', path, body: body.toString('latin1'), contentType: 'application/vnd.kubernetes.protobuf' });
  return { status: res.status, body: JSON.parse(res.body) as { reason?: string; message?: string } };
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
        ['-n', 'shop', 'create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3', '--port=8080', '--', 'sleep', 'inf'],
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
      expect((await h.core.readNamespacedConfigMap({ name: 'settings', namespace: 'shop' })).data).toEqual({ mode: 'fast', level: '3' });
      const secret = await h.core.readNamespacedSecret({ name: 'token', namespace: 'shop' });
      expect(secret.type).toBe('Opaque');
      expect(Buffer.from(secret.data?.key ?? '', 'base64').toString()).toBe('s3cret');
      const web = (await h.client.transport.request({ method: 'GET', path: '/apis/apps/v1/namespaces/shop/deployments/web' })).body;
      expect(JSON.parse(web)).toMatchObject({
        metadata: { labels: { app: 'web' } },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'web' } },
          strategy: { type: 'RollingUpdate' },
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', command: ['sleep', 'inf'], ports: [{ containerPort: 8080 }] }] } },
        },
      });
      const svc = await h.core.readNamespacedService({ name: 'web', namespace: 'shop' });
      expect(svc.spec).toMatchObject({ type: 'ClusterIP', selector: { app: 'web' }, ports: [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }] });
      expect((await h.core.readNamespacedServiceAccount({ name: 'robot', namespace: 'shop' })).metadata?.name).toBe('robot');
      const pc = JSON.parse((await h.client.transport.request({ method: 'GET', path: '/apis/scheduling.k8s.io/v1/priorityclasses/high' })).body) as Record<string, unknown>;
      expect(pc).toMatchObject({ value: 1000, description: 'important', preemptionPolicy: 'PreemptLowerPriority' });
      const pdb = JSON.parse((await h.client.transport.request({ method: 'GET', path: '/apis/policy/v1/namespaces/shop/poddisruptionbudgets/web' })).body) as Record<string, unknown>;
      expect(pdb).toMatchObject({ spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } } });
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
    const meta = bytesField(1, bytesField(1, 'db'));
    const r = await post(h, '/apis/apps/v1/namespaces/default/statefulsets', envelope('apps/v1', 'StatefulSet', meta));
    expect(r.status).toBe(415);
    expect(r.body.reason).toBe('UnsupportedMediaType');
    expect(r.body.message).toContain('send apps/v1 StatefulSet as JSON instead');
    expect(r.body.message).toContain('v1/ConfigMap');
  });

  it('answers 415 for a field it does not know rather than dropping it', async () => {
    const meta = bytesField(1, bytesField(1, 'odd'));
    const r = await post(h, '/api/v1/namespaces/default/configmaps', envelope('v1', 'ConfigMap', Buffer.concat([meta, bytesField(9, 'x')])));
    expect(r.status).toBe(415);
    expect(r.body.message).toContain('cannot decode field 9 of ConfigMap');
    const list = await h.core.listNamespacedConfigMap({ namespace: 'default' });
    expect(list.items.map((c) => c.metadata?.name)).not.toContain('odd');
  });
});
