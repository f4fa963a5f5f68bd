/** `tenon apiserver --state FILE`: objects survive a stop and a restart with their uids and resourceVersions. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { transportFromKubeConfig } from '../../src/kube/index.js';

const tenon = fileURLToPath(new URL('../../bin/tenon.js', import.meta.url));

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const running: ChildProcess[] = [];

function launch(args: string[]): Running {
  const child = spawn(process.execPath, [tenon, 'apiserver', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

async function startCli(dir: string): Promise<{ run: Running; kc: k8s.KubeConfig }> {
  const kubeconfig = join(dir, 'kubeconfig');
  const run = launch(['--port', '0', '--kubeconfig', kubeconfig, '--state', join(dir, 'state.jsonl')]);
  const end = Date.now() + 30_000;
  while (!run.output().includes('Ctrl-C stops it.')) {
    if (Date.now() > end) throw new Error(`tenon apiserver did not start: ${run.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const kc = new k8s.KubeConfig();
  kc.loadFromString(readFileSync(kubeconfig, 'utf8'));
  return { run, kc };
}

async function stop(run: Running): Promise<number | null> {
  run.child.kill('SIGTERM');
  return run.exited;
}

afterEach(() => {
  for (const c of running.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('tenon apiserver --state', () => {
  it('keeps objects, uids and resourceVersions across a restart and goes on counting from there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenon-state-'));
    const first = await startCli(dir);
    expect(first.run.output()).toContain('(new;');
    const core = first.kc.makeApiClient(k8s.CoreV1Api);
    const custom = first.kc.makeApiClient(k8s.CustomObjectsApi);
    const cm = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'kept' }, data: { a: 'b' } },
    });
    const pool = (await custom.createClusterCustomObject({
      group: 'karpenter.sh',
      version: 'v1',
      plural: 'nodepools',
      body: {
        apiVersion: 'karpenter.sh/v1',
        kind: 'NodePool',
        metadata: { name: 'general' },
        spec: {
          template: {
            spec: {
              nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
              requirements: [],
            },
          },
        },
      },
    })) as { metadata: { uid: string; resourceVersion: string } };
    await core.deleteNamespacedConfigMap({ name: 'kept', namespace: 'default' }).catch(() => undefined);
    const kept = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'kept' }, data: { a: 'c' } },
    });
    expect(await stop(first.run)).toBe(0);

    const second = await startCli(dir);
    expect(second.run.output()).toContain('(loaded;');
    const core2 = second.kc.makeApiClient(k8s.CoreV1Api);
    const custom2 = second.kc.makeApiClient(k8s.CustomObjectsApi);
    const again = await core2.readNamespacedConfigMap({ name: 'kept', namespace: 'default' });
    expect(again.metadata?.uid).toBe(kept.metadata?.uid);
    expect(again.metadata?.uid).not.toBe(cm.metadata?.uid);
    expect(again.metadata?.resourceVersion).toBe(kept.metadata?.resourceVersion);
    expect(again.data).toEqual({ a: 'c' });
    const poolAgain = (await custom2.getClusterCustomObject({
      group: 'karpenter.sh',
      version: 'v1',
      plural: 'nodepools',
      name: 'general',
    })) as typeof pool;
    expect(poolAgain.metadata).toMatchObject({
      uid: pool.metadata.uid,
      resourceVersion: pool.metadata.resourceVersion,
    });
    const next = await core2.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'later' } } });
    expect(Number(next.metadata?.resourceVersion)).toBeGreaterThan(Number(kept.metadata?.resourceVersion));
    // A watch from before the restart cannot be resumed: 410 Gone, so informers list again.
    const transport = await transportFromKubeConfig(second.kc);
    const watch = await transport.request({
      method: 'GET',
      path: '/api/v1/namespaces/default/configmaps',
      query: { watch: 'true', resourceVersion: cm.metadata?.resourceVersion },
    });
    expect(JSON.parse(watch.body)).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
    expect(await stop(second.run)).toBe(0);
  }, 90_000);

  it('keeps acknowledged writes, its address, CA and token across a kill -9', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenon-state-'));
    const first = await startCli(dir);
    const before = readFileSync(join(dir, 'kubeconfig'), 'utf8');
    expect(statSync(join(dir, 'state.jsonl.credentials')).mode & 0o777).toBe(0o600);
    const core = first.kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'gone' } } });
    await core.deleteNamespacedConfigMap({ name: 'gone', namespace: 'default' });
    // Acknowledged, and killed right after: long before the periodic snapshot (60 s) could have saved it.
    const written = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'acknowledged' }, data: { a: 'b' } },
    });
    first.run.child.kill('SIGKILL');
    await first.run.exited;

    const second = await startCli(dir);
    expect(readFileSync(join(dir, 'kubeconfig'), 'utf8')).toBe(before);
    // The client made from the first server's kubeconfig, as a kubectl or controller would still hold it.
    const again = await core.readNamespacedConfigMap({ name: 'acknowledged', namespace: 'default' });
    expect(again.metadata).toMatchObject({
      uid: written.metadata?.uid,
      resourceVersion: written.metadata?.resourceVersion,
    });
    expect(again.data).toEqual({ a: 'b' });
    const names = (await core.listNamespacedConfigMap({ namespace: 'default' })).items.map((c) => c.metadata?.name);
    expect(names).not.toContain('gone');
    const next = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'next' } } });
    expect(Number(next.metadata?.resourceVersion)).toBeGreaterThan(Number(written.metadata?.resourceVersion));
    expect(await stop(second.run)).toBe(0);
    // A clean stop saves a snapshot, which takes the log's records: nothing is left to replay.
    expect(readFileSync(join(dir, 'state.jsonl.log'), 'utf8')).toBe('');
    expect(existsSync(join(dir, 'state.jsonl.log.old'))).toBe(false);
  }, 90_000);

  it('refuses a corrupt state file, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenon-state-'));
    const file = join(dir, 'state.jsonl');
    writeFileSync(
      file,
      '{"kind":"TenonApiServerState","version":1,"resourceVersion":"9","savedAtMs":0}\n{"resource":"/v1/configmaps","obj',
    );
    const run = launch(['--kubeconfig', join(dir, 'kubeconfig'), '--state', file]);
    expect(await run.exited).toBe(2);
    expect(run.output()).toContain(`cannot load API server state from ${file}: line 2 is not JSON`);
  }, 60_000);
});
