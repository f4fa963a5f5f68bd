import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startApiServer } from '../../src/apiserver/index.js';
import { freePort } from '../../bench/free-port.js';

const tenon = join(process.cwd(), 'bin', 'tenon.js');

/** Runs `tenon controller` with the given environment; collects its output. */
function startController(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [tenon, 'controller', ...args], {
    env: { ...process.env, METRICS_PORT: '0', ...env },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitReady(port: number, exited: Promise<number | null>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (let i = 0; i < 300 && !gone; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** Polls `probe` every 100 ms of real time (child processes run on the wall clock) for up to 60 s. */
async function until(probe: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !probe(); i++) await new Promise((r) => setTimeout(r, 100));
  if (!probe()) throw new Error('condition not met within 60 s');
}

const running: ChildProcess[] = [];
afterEach(() => {
  for (const c of running.splice(0)) c.kill('SIGKILL');
});

describe('tenon controller', () => {
  it('runs the operator with the AWS provider against a cluster, becomes ready and stops on SIGTERM', async () => {
    const server = await startApiServer({});
    try {
      const dir = mkdtempSync(join(tmpdir(), 'tenon-controller-'));
      const kubeconfig = join(dir, 'kubeconfig');
      writeFileSync(kubeconfig, server.kubeConfigYaml);
      const port = await freePort();
      const run = startController(['--cloud-provider', 'aws', '--kubeconfig', kubeconfig], {
        CLUSTER_NAME: 'e2e',
        CLUSTER_ENDPOINT: server.url,
        HEALTH_PROBE_PORT: String(port),
        DISABLE_LEADER_ELECTION: 'true',
        // No AWS here: the SDK is pointed at a closed port, so EC2 calls fail fast instead of leaving the machine.
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
        AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
        AWS_MAX_ATTEMPTS: '1',
      });
      running.push(run.child);
      expect(await waitReady(port, run.exited), run.output()).toBe(true);
      expect(run.output()).toMatch(/controllers running/);
      expect(run.output()).toMatch(/"provider":"aws"/);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('runs two replicas: both Ready, one leads, and SIGTERM hands the lease to the standby', async () => {
    const server = await startApiServer({});
    try {
      const dir = mkdtempSync(join(tmpdir(), 'tenon-controller-'));
      const kubeconfig = join(dir, 'kubeconfig');
      writeFileSync(kubeconfig, server.kubeConfigYaml);
      const replicas: Array<ReturnType<typeof startController> & { port: number }> = [];
      for (const _ of [1, 2]) {
        const port = await freePort();
        const run = startController(['--cloud-provider', 'fake', '--kubeconfig', kubeconfig], {
          HEALTH_PROBE_PORT: String(port),
          METRICS_PORT: String(await freePort()),
          LEADER_ELECTION_NAMESPACE: 'default',
        });
        running.push(run.child);
        replicas.push({ ...run, port });
      }
      for (const r of replicas) expect(await waitReady(r.port, r.exited), r.output()).toBe(true);
      const leads = (r: (typeof replicas)[number]): boolean => r.output().includes('successfully acquired lease');
      await until(() => replicas.some(leads));
      const leader = replicas.find(leads);
      const standby = replicas.find((r) => !leads(r));
      expect(standby, 'only one replica leads').toBeDefined();
      expect(leader?.output()).toMatch(/"lease":"default\/tenon-leader-election"/);
      leader?.child.kill('SIGTERM');
      expect(await leader?.exited).toBe(0);
      // The lease was handed back: the standby takes it on its next 2 s retry, not after the 15 s lease.
      const handedAt = Date.now();
      await until(() => (standby ? leads(standby) : false));
      expect(Date.now() - handedAt).toBeLessThan(15_000);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('refuses the AWS provider without CLUSTER_NAME, naming the setting', async () => {
    const server = await startApiServer({});
    try {
      const dir = mkdtempSync(join(tmpdir(), 'tenon-controller-'));
      const kubeconfig = join(dir, 'kubeconfig');
      writeFileSync(kubeconfig, server.kubeConfigYaml);
      const run = startController(['--cloud-provider', 'aws', '--kubeconfig', kubeconfig], {
        CLUSTER_NAME: '',
        HEALTH_PROBE_PORT: String(await freePort()),
        DISABLE_LEADER_ELECTION: 'true',
      });
      running.push(run.child);
      expect(await run.exited).not.toBe(0);
      expect(run.output()).toMatch(/CLUSTER_NAME: required with --cloud-provider aws/);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('names the known providers when given an unknown one', async () => {
    const run = startController(['--cloud-provider', 'gcp'], { HEALTH_PROBE_PORT: '0' });
    running.push(run.child);
    expect(await run.exited).toBe(2);
    expect(run.output()).toMatch(/--cloud-provider: unknown provider "gcp": known: fake, aws/);
  }, 60_000);
});
