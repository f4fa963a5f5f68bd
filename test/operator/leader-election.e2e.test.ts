/**
 * Leader election as a replica lives it, in real time: each replica is its own process (test/operator/replica.ts,
 * wired as `tenon controller` is) against an embedded API server in this process. Short lease timings keep the
 * waits short; every wait is on a condition.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/apiserver/index.js';
import { KubeConfig } from '@kubernetes/client-node';
import {
  KubeClient,
  Resources,
  transportFromKubeConfig,
  watchResource,
  type KubeObject,
  type Lease,
} from '../../src/kube/index.js';

/** client-go's proportions (15 s / 10 s / 2 s), shortened. */
const leaseMs = 4_000;
const renewDeadlineMs = 3_000;
const retryMs = 500;
/** Room for a loaded machine: processes and requests slowed by other work, which the bounds must not count. */
const slackMs = 2_000;

let server: ApiServer;
let admin: KubeClient;
let dir: string;
let direct: string;
const replicas: Replica[] = [];

interface Replica {
  child: ChildProcess;
  output(): string;
  send(line: string): void;
  exited: Promise<number | null>;
  /** Resolves with the first output line matching `pattern`; rejects if the process exits first. */
  line(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

function startReplica(electorKubeconfig = direct): Replica {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'replica.ts'),
      direct,
      electorKubeconfig,
      String(leaseMs),
      String(renewDeadlineMs),
      String(retryMs),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  const waiters = new Set<() => void>();
  const onData = (d: Buffer): void => {
    out += d.toString();
    for (const w of waiters) w();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const r: Replica = {
    child,
    output: () => out,
    send: (line) => void child.stdin?.write(`${line}\n`),
    exited,
    line: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          for (const l of out.split('\n')) {
            const m = pattern.exec(l);
            if (m) {
              waiters.delete(check);
              clearTimeout(timer);
              resolve(m);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no line ${String(pattern)} within ${timeoutMs} ms:\n${out}`));
        }, timeoutMs);
        waiters.add(check);
        void exited.then(() => {
          check();
          if (waiters.delete(check)) {
            clearTimeout(timer);
            reject(new Error(`replica exited before ${String(pattern)}:\n${out}`));
          }
        });
        check();
      }),
  };
  replicas.push(r);
  return r;
}

/** A TCP relay to the API server that the test can cut, as a network partition cuts one replica off. */
async function relay(to: URL): Promise<{ url: string; cut: () => void; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let down = false;
  const s: Server = createServer((inbound) => {
    if (down) return void inbound.destroy();
    const outbound = connect(Number(to.port), to.hostname);
    for (const sock of [inbound, outbound]) {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
      sock.on('error', () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const addr = s.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `${to.protocol}//127.0.0.1:${port}`,
    cut: () => {
      down = true;
      for (const sock of sockets) sock.destroy();
    },
    close: () => new Promise<void>((resolve) => s.close(() => resolve())),
  };
}

async function lease(): Promise<Lease> {
  return admin.get<Lease>(Resources.leases, { name: 'tenon-leader-election', namespace: 'kube-system' });
}

function identity(r: Replica): string {
  const m = /"identity":"([^"]+)"/.exec(r.output());
  if (!m?.[1]) throw new Error(`no identity in the replica's output:\n${r.output()}`);
  return m[1];
}

beforeAll(async () => {
  server = await startApiServer({});
  dir = mkdtempSync(join(tmpdir(), 'tenon-election-'));
  direct = join(dir, 'kubeconfig');
  writeFileSync(direct, server.kubeConfigYaml, { mode: 0o600 });
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  admin = new KubeClient(await transportFromKubeConfig(kc));
});

afterEach(async () => {
  for (const r of replicas.splice(0)) {
    r.child.kill('SIGKILL');
    await r.exited;
  }
  await admin.delete(Resources.leases, { name: 'tenon-leader-election', namespace: 'kube-system' }).catch(() => 0);
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('leader election', { timeout: 120_000 }, () => {
  it('keeps the lease through a main thread blocked longer than the lease duration; a standby takes over once the process is gone', async () => {
    // Both start at once: whichever wins leads, and the other has seen its record before anything else happens.
    const started = [startReplica(), startReplica()];
    const leader = await Promise.any(started.map((r) => r.line(/^REPLICA won/).then(() => r)));
    const standby = started.find((r) => r !== leader) as Replica;
    await standby.line(/lock is held by another holder/);
    const before = await lease();

    leader.send(`block ${2 * leaseMs}`);
    await leader.line(/^REPLICA blocked/);
    // The write right after the stretch lands: the renewer kept the Lease meanwhile.
    await leader.line(/^REPLICA wrote after-block-0/);
    const after = await lease();
    expect(after.spec?.holderIdentity).toBe(identity(leader));
    expect(after.spec?.leaseTransitions).toBe(before.spec?.leaseTransitions);
    expect(Date.parse(after.spec?.renewTime ?? '')).toBeGreaterThan(Date.parse(before.spec?.renewTime ?? ''));
    expect(standby.output()).not.toMatch(/REPLICA won/);
    expect(leader.output()).not.toMatch(/leader election lost/);

    leader.child.kill('SIGKILL');
    const killedAt = Date.now();
    await standby.line(/^REPLICA won/);
    const takeoverMs = Date.now() - killedAt;
    expect((await lease()).spec?.holderIdentity).toBe(identity(standby));
    // client-go's bound: a lease duration after the last renew the standby saw, noticed on its retry period.
    expect(takeoverMs).toBeLessThanOrEqual(leaseMs + 2 * retryMs + slackMs);
  });

  it('stops writing once its renewals have failed for the renew deadline, before the standby takes over', async () => {
    const cutOff = await relay(new URL(serverUrl()));
    try {
      const electorConfig = join(dir, 'kubeconfig-relayed');
      writeFileSync(electorConfig, server.kubeConfigYaml.replace(serverUrl(), cutOff.url), { mode: 0o600 });
      const a = startReplica(electorConfig);
      await a.line(/^REPLICA won/);
      const b = startReplica();
      await b.line(/lock is held by another holder/);
      const seen: { holder: string; resourceVersion: string }[] = [];
      const stop = new AbortController();
      void watchResource<Lease>(admin, Resources.leases, { namespace: 'kube-system', signal: stop.signal }, (e) =>
        seen.push({
          holder: e.object.spec?.holderIdentity ?? '',
          resourceVersion: e.object.metadata.resourceVersion ?? '',
        }),
      ).catch(() => undefined);
      a.send('writes');
      await a.line(/^REPLICA wrote w-2 /);
      // Only the elector's connection is cut: the controllers' client could still write, the fence must stop it.
      cutOff.cut();
      const cutAt = Date.now();
      // Writing stops by the renew deadline: the fence refuses the next write, or the replica has already exited.
      await Promise.race([a.line(/^REPLICA refused w-/).catch(() => undefined), a.exited]);
      expect(Date.now() - cutAt).toBeLessThanOrEqual(renewDeadlineMs + retryMs + slackMs);
      expect(await a.exited).toBe(1);
      const loss =
        a
          .output()
          .split('\n')
          .find((l) => l.includes('leader election lost')) ?? '';
      expect(loss).toMatch(/"reason":"failed to renew lease: last renewed [\d.]+ s ago/);
      await b.line(/^REPLICA won/);
      await new Promise((r) => setTimeout(r, 200));
      stop.abort();
      const takeover = seen.find((e) => e.holder === identity(b))?.resourceVersion;
      expect(takeover).toBeDefined();
      const written = (await admin.list<KubeObject>(Resources.configMaps, { namespace: 'default' })).items.filter(
        (cm) => /^w-\d+$/.test(cm.metadata.name ?? ''),
      );
      expect(written.length).toBeGreaterThan(2);
      for (const cm of written) expect(Number(cm.metadata.resourceVersion)).toBeLessThan(Number(takeover));
    } finally {
      await cutOff.close();
    }
  });
});

function serverUrl(): string {
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  const url = kc.getCurrentCluster()?.server;
  if (!url) throw new Error('the API server kubeconfig names no server');
  return url;
}
