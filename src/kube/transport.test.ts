import { KubeConfig } from '@kubernetes/client-node';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateServingCerts } from '../apiserver/tls/tls.js';
import { FakeClock } from '../clock/index.js';
import { clusterCaData } from './credentials.js';
import { transportFromKubeConfig } from './transport.js';

/** One answer of the test server: status, headers, body. */
type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/** A loopback HTTPS server that records each request's Authorization and answers with `reply`. */
async function apiServer(
  reply: (auth: string, n: number) => Reply,
): Promise<{ port: number; caPem: string; seen: string[]; close: () => Promise<void> }> {
  const certs = generateServingCerts();
  const seen: string[] = [];
  const server = https.createServer({ key: certs.keyPem, cert: certs.certPem }, (req, res) => {
    const auth = req.headers.authorization ?? '';
    seen.push(auth);
    const r = reply(auth, seen.length);
    if (r === 'hang') return;
    res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
    res.end(r.body ?? '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    caPem: certs.caPem,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function kubeConfig(o: { port: number; caPem: string; user: Record<string, unknown> }): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: 'c',
        server: `https://127.0.0.1:${o.port}`,
        caData: Buffer.from(o.caPem).toString('base64'),
        skipTLSVerify: false,
      },
    ],
    users: [{ name: 'u', ...o.user }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return kc;
}

/** Advances the fake clock until `done` settles (each step fires whatever retry or rate-limit wait is due). */
async function settle<T>(clock: FakeClock, done: Promise<T>, stepMs: number): Promise<T> {
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => undefined);
  for (let i = 0; i < 200 && !finished; i++) {
    await new Promise((r) => setImmediate(r));
    if (clock.pending() > 0) clock.advance(stepMs);
  }
  return done;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const c of closers.splice(0)) await c();
});

describe('the in-cluster transport', () => {
  it('reads the projected ServiceAccount token and CA from their files, and picks up a rotated token', async () => {
    let valid = 'token-1';
    const api = await apiServer((auth) =>
      auth === `Bearer ${valid}` ? { status: 200, body: '{"kind":"Status"}' } : { status: 401 },
    );
    closers.push(api.close);
    const root = mkdtempSync(join(tmpdir(), 'tenon-sa-'));
    const dir = join(root, 'var/run/secrets/kubernetes.io/serviceaccount');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'token'), valid);
    writeFileSync(join(dir, 'ca.crt'), api.caPem);
    vi.stubEnv('KUBERNETES_SERVICE_HOST', '127.0.0.1');
    vi.stubEnv('KUBERNETES_SERVICE_PORT', String(api.port));
    const kc = new KubeConfig();
    kc.loadFromCluster(root);
    const t = await transportFromKubeConfig(kc);
    expect((await t.request({ method: 'GET', path: '/version' })).status).toBe(200);

    // The kubelet rotates the projected token; the API server stops accepting the old one.
    valid = 'token-2';
    writeFileSync(join(dir, 'token'), valid);
    expect((await t.request({ method: 'GET', path: '/version' })).status).toBe(200);
    expect(api.seen.at(-1)).toBe('Bearer token-2');

    // userData needs the cluster CA: in-cluster it comes from the mounted file, not from caData.
    const ca = await clusterCaData(kc, (p) => Promise.resolve(readFileSync(p)));
    expect(Buffer.from(ca ?? '', 'base64').toString()).toBe(api.caPem);
  });

  it('runs the exec plugin again once its token has expired', async () => {
    const api = await apiServer(() => ({ status: 200 }));
    closers.push(api.close);
    const dir = mkdtempSync(join(tmpdir(), 'tenon-exec-'));
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'eks-token-1');
    const plugin = join(dir, 'plugin.mjs');
    // Like aws-iam-authenticator: a short-lived token with its expiry (already past here, so every use refreshes).
    writeFileSync(
      plugin,
      `import { readFileSync } from 'node:fs';
process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: readFileSync(${JSON.stringify(tokenFile)}, 'utf8'), expirationTimestamp: '2000-01-01T00:00:00Z' } }));`,
    );
    const kc = kubeConfig({
      ...api,
      user: {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: process.execPath,
          args: [plugin],
          interactiveMode: 'Never',
        },
      },
    });
    const t = await transportFromKubeConfig(kc);
    await t.request({ method: 'GET', path: '/api' });
    writeFileSync(tokenFile, 'eks-token-2');
    await t.request({ method: 'GET', path: '/api' });
    expect(api.seen.at(-2)).toBe('Bearer eks-token-1');
    expect(api.seen.at(-1)).toBe('Bearer eks-token-2');
  });
});

describe('the request policy', () => {
  it('waits for Retry-After on a 429 before sending again, on the injected clock', async () => {
    const api = await apiServer((_a, n) =>
      n <= 2 ? { status: 429, headers: { 'retry-after': '3' }, body: '{"reason":"TooManyRequests"}' } : { status: 201 },
    );
    closers.push(api.close);
    const clock = new FakeClock(0);
    const t = await transportFromKubeConfig(kubeConfig({ ...api, user: { token: 't' } }), {
      policy: { clock, maxRetries: 5 },
    });
    const res = await settle(
      clock,
      t.request({ method: 'POST', path: '/api/v1/namespaces/default/pods', body: {} }),
      3000,
    );
    expect(res.status).toBe(201);
    expect(api.seen).toHaveLength(3);
    expect(clock.now()).toBe(6000);
  });

  it('retries a GET answered 503 with back-off but never re-sends a failed POST the server named no retry for', async () => {
    const api = await apiServer((_a, n) => (n === 1 ? { status: 503 } : n === 2 ? { status: 200 } : { status: 500 }));
    closers.push(api.close);
    const clock = new FakeClock(0);
    const t = await transportFromKubeConfig(kubeConfig({ ...api, user: { token: 't' } }), {
      policy: { clock, maxRetries: 3, backoff: { base: 100, max: 1000 } },
    });
    expect((await settle(clock, t.request({ method: 'GET', path: '/api' }), 100)).status).toBe(200);
    expect(
      (await settle(clock, t.request({ method: 'POST', path: '/api/v1/namespaces/default/pods', body: {} }), 100))
        .status,
    ).toBe(500);
    expect(api.seen).toHaveLength(3);
  });

  it('gives up after maxRetries and returns the last answer', async () => {
    const api = await apiServer(() => ({ status: 503, headers: { 'retry-after': '1' } }));
    closers.push(api.close);
    const clock = new FakeClock(0);
    const t = await transportFromKubeConfig(kubeConfig({ ...api, user: { token: 't' } }), {
      policy: { clock, maxRetries: 2 },
    });
    expect((await settle(clock, t.request({ method: 'GET', path: '/api' }), 1000)).status).toBe(503);
    expect(api.seen).toHaveLength(3);
  });

  it('holds requests beyond the burst until the QPS refills the bucket', async () => {
    const api = await apiServer(() => ({ status: 200 }));
    closers.push(api.close);
    const clock = new FakeClock(0);
    const t = await transportFromKubeConfig(kubeConfig({ ...api, user: { token: 't' } }), {
      policy: { clock, qps: 1, burst: 2 },
    });
    const all = Promise.all([1, 2, 3].map(() => t.request({ method: 'GET', path: '/api' })));
    for (let i = 0; i < 20 && api.seen.length < 2; i++) await new Promise((r) => setImmediate(r));
    expect(api.seen).toHaveLength(2);
    await settle(clock, all, 1000);
    expect(api.seen).toHaveLength(3);
    expect(clock.now()).toBeGreaterThanOrEqual(1000);
  });

  it('abandons a request the API server never answers, naming the timeout', async () => {
    const api = await apiServer(() => 'hang');
    closers.push(api.close);
    const t = await transportFromKubeConfig(kubeConfig({ ...api, user: { token: 't' } }), {
      policy: { clock: new FakeClock(0), timeoutMs: 50 },
    });
    await expect(t.request({ method: 'POST', path: '/api/v1/namespaces/default/pods', body: {} })).rejects.toThrow(
      /no answer from the API server within 50 ms/,
    );
  });
});

describe('watch streams', () => {
  it('hands a refused watch back as its Status, not as events', async () => {
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: 'nodes is forbidden',
    };
    const api = await apiServer(() => ({ status: 403, body: `${JSON.stringify(status)}\n` }));
    closers.push(api.close);
    const t = await transportFromKubeConfig(kubeConfig({ ...api, user: { token: 't' } }));
    const lines: string[] = [];
    const res = await t.stream({
      method: 'GET',
      path: '/api/v1/nodes',
      query: { watch: true },
      signal: new AbortController().signal,
      onLine: (l) => lines.push(l),
    });
    expect(lines).toEqual([]);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ reason: 'Forbidden' });
  });
});
