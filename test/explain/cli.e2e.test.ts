/**
 * `tenon explain` and `kubectl tenon explain` against a playground reached over HTTPS with its kubeconfig, as a user
 * runs them: the real kubectl finds the plugin on PATH.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExplain } from '../../src/cli/commands/explain.js';
import { docs, nodeClass, nodePool, pod, situation, type Situation } from './harness.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');

describe('tenon explain against the playground over HTTPS', () => {
  let s: Situation;
  let dir: string;
  let kubeconfig: string;
  beforeAll(async () => {
    s = await situation(
      docs(
        nodeClass(),
        nodePool('general', { limits: '{cpu: "1000"}' }),
        pod('too-big', { cpu: '500', memory: '20Gi' }),
        pod('web'),
      ),
      60_000,
    );
    dir = mkdtempSync(join(tmpdir(), 'tenon-explain-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, s.pg.kubeConfigYaml);
  }, 120_000);
  afterAll(async () => {
    await s.pg.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the cause line, the fix line and the NodePool details; exit 0', async () => {
    let text = '';
    const code = await runExplain('pod', 'too-big', { kubeconfig }, (t) => (text += t));
    expect(code).toBe(0);
    const lines = text.split('\n');
    expect(lines[0]).toBe('pod default/too-big: Pending');
    expect(lines[1]).toMatch(
      /^needs 500 CPU and 20Gi; the largest instance type NodePool `general` allows \(\S+\) has [\d.]+ CPU allocatable$/,
    );
    expect(lines[2]).toMatch(/^fix: request at most/);
  });

  it('-o json carries cause.constraint, cause.object, cause.numbers and fix', async () => {
    let text = '';
    await runExplain('pod', 'default/too-big', { kubeconfig, output: 'json' }, (t) => (text += t));
    const j = JSON.parse(text) as {
      cause: { constraint: string; object: string; numbers: Record<string, string> };
      fix: string;
    };
    expect(j.cause.constraint).toBe('resources');
    expect(j.cause.object).toBe('NodePool/general');
    expect(j.cause.numbers['requested']).toBe('500 CPU');
    expect(j.fix).toMatch(/request at most/);
  });

  it('explains the NodePool (usage against limits, next launch) and exits 1 for an unknown object', async () => {
    let text = '';
    expect(await runExplain('nodepool', 'general', { kubeconfig }, (t) => (text += t))).toBe(0);
    expect(text).toMatch(/cpu \d+(\.\d+)? CPU of 1000 CPU in use/);
    expect(text).toMatch(/next launch for a small pod: \S+ in us-east-1[abc] \((on-demand|spot), \$[\d.]+\/h\)/);
    expect(await runExplain('node', 'no-such-node', { kubeconfig }, () => undefined)).toBe(1);
  });

  it('refuses a bad kind with a usage error naming it', async () => {
    await expect(runExplain('deployment', 'x', { kubeconfig }, () => undefined)).rejects.toThrow(
      /KIND: "deployment" is not one of pod, nodeclaim, node, nodepool/,
    );
  });

  it('works as a kubectl plugin found on PATH (the real /usr/bin/kubectl)', async () => {
    const bin = join(dir, 'bin');
    rmSync(bin, { recursive: true, force: true });
    mkdirSync(bin);
    symlinkSync(join(root, 'bin/kubectl-tenon.js'), join(bin, 'kubectl-tenon'));
    const env = { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, KUBECONFIG: kubeconfig };
    const { stdout } = await run('/usr/bin/kubectl', ['tenon', 'explain', 'pod', 'too-big'], { env, timeout: 60_000 });
    expect(stdout).toMatch(/^pod default\/too-big: Pending\nneeds 500 CPU/);
  }, 90_000);
});
