/**
 * `tenon serve` starts again in a child process (lean-malloc.ts): a signal to the PID the user started must stop
 * both, and the child must not outlive a parent killed outright. Real processes, as a user runs them.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

// The build (about a second) spares each process tsx's loader and its start-up time, as `npm start` does.
const tenon = join(process.cwd(), 'dist', 'src', 'cli', 'main.js');
beforeAll(() => {
  const r = spawnSync(process.execPath, [join(process.cwd(), 'scripts', 'build.mjs')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
});
const started: number[] = [];

afterEach(() => {
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

/** Starts `tenon serve` without the lean malloc settings (so it relaunches) and waits for its banner. */
async function serve(): Promise<{ parent: ChildProcess; child: number; exited: Promise<number | null> }> {
  const dir = mkdtempSync(join(tmpdir(), 'tenon-signals-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.MALLOC_MMAP_THRESHOLD_;
  delete env.TENON_RELAUNCHED;
  const parent = spawn(process.execPath, [tenon, 'serve', '--port', '0', '--kubeconfig', join(dir, 'kubeconfig')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(parent.pid ?? 0);
  const exited = new Promise<number | null>((resolve) => parent.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    parent.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('serving at')) resolve();
    });
    parent.on('exit', () => reject(new Error(`serve exited before serving: ${out}`)));
  });
  const children = readFileSync(`/proc/${parent.pid}/task/${parent.pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .map(Number);
  const child = children[0] ?? 0;
  started.push(child);
  return { parent, child, exited };
}

/** Resolves once `pid` is gone; rejects after `ms` (real time: these are real processes). */
async function gone(pid: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still running after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('tenon serve exits with its child', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to the started PID stops the parent and the relaunched child',
    async (signal) => {
      const { parent, child, exited } = await serve();
      expect(child).toBeGreaterThan(0);
      expect(alive(child)).toBe(true);
      parent.kill(signal);
      await exited;
      await gone(child, 10_000);
    },
    120_000,
  );

  it('the relaunched child stops when its parent is killed outright', async () => {
    const { parent, child, exited } = await serve();
    parent.kill('SIGKILL');
    await exited;
    await gone(child, 10_000);
  }, 120_000);
});
