/**
 * The image's file layout, built the way the Dockerfile builds it (production dependencies from `npm ci
 * --omit=dev`, the transpiled sources, data/ and scenarios/), then run: a runtime import of a devDependency
 * fails here instead of in a cluster.
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer } from '../../src/apiserver/index.js';
import { freePort } from '../../bench/free-port.js';

const run = promisify(execFile);
const repo = process.cwd();
let app = '';

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or undefined for relative and node: ones. */
function packageOf(spec: string): string | undefined {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) return undefined;
  // Only what could name a package: a message such as `from "${schedule}"` in a template string is not an import.
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(\/[\w./-]*)?$/i.test(spec)) return undefined;
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

beforeAll(async () => {
  app = mkdtempSync(join(tmpdir(), 'tenon-image-'));
  for (const f of ['package.json', 'package-lock.json']) cpSync(join(repo, f), join(app, f));
  await run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: app,
  });
  await run(process.execPath, ['scripts/build.mjs', '--outdir', join(app, 'dist'), '--src-only'], { cwd: repo });
  for (const d of ['data', 'scenarios']) cpSync(join(repo, d), join(app, d), { recursive: true });
}, 600_000);

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true });
});

describe('the image layout', () => {
  it('has every package the shipped code imports among the production dependencies', () => {
    const missing = new Set<string>();
    for (const file of jsFiles(join(app, 'dist'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(
        /(?:\bfrom\s*|\bimport\s*\(\s*|require\.resolve\(\s*|\bimport\s+)['"]([^'"]+)['"]/g,
      )) {
        const pkg = packageOf(m[1] ?? '');
        if (pkg && !existsSync(join(app, 'node_modules', pkg, 'package.json')))
          missing.add(`${pkg} (imported by ${file.slice(app.length + 1)})`);
      }
    }
    expect([...missing]).toEqual([]);
  });

  it('runs the entrypoint, `tenon controller`, to Ready and stops on SIGTERM', async () => {
    const server = await startApiServer({});
    try {
      const kubeconfig = join(app, 'kubeconfig');
      writeFileSync(kubeconfig, server.kubeConfigYaml);
      const port = await freePort();
      const child = spawn(process.execPath, ['dist/src/cli/main.js', 'controller', '--kubeconfig', kubeconfig], {
        cwd: app,
        env: {
          PATH: process.env.PATH ?? '',
          HEALTH_PROBE_PORT: String(port),
          METRICS_PORT: '0',
          LEADER_ELECTION_NAMESPACE: 'default',
          NODE_ENV: 'production',
        },
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      let ready = false;
      for (let i = 0; i < 300 && !ready && child.exitCode === null; i++) {
        ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (!ready) await new Promise((r) => setTimeout(r, 100));
      }
      expect(ready, out).toBe(true);
      child.kill('SIGTERM');
      expect(await exited, out).toBe(0);
    } finally {
      await server.close();
    }
  }, 120_000);
});
