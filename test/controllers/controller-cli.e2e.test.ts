import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startApiServer } from '../../src/apiserver/index.js';

const tenon = join(process.cwd(), 'bin', 'tenon.js');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Runs `tenon controller` with the given environment; collects its output. */
function startController(args: string[], env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [tenon, 'controller', ...args], { env: { ...process.env, ...env } });
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
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
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
    expect(await run.exited).not.toBe(0);
    expect(run.output()).toMatch(/--cloud-provider: unknown provider "gcp": known: fake, aws/);
  }, 60_000);
});
