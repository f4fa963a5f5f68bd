/** Runs the real kubectl binaries against an embedded server, with a private kubeconfig and cache dir. */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../../src/apiserver/index.js';

/** The kubectl binary of a minor version (`1.27` … `1.33`). */
export function kubectlBinary(version: string): string {
  return `/usr/lib/google-cloud-sdk/bin/kubectl.${version}`;
}

/** True when that kubectl is installed. */
export function hasKubectl(version: string): boolean {
  return existsSync(kubectlBinary(version));
}

/** A kubectl bound to one server. */
export interface Kubectl {
  run(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Starts a long-running command (get -w) and returns its growing output and a stop function. */
  start(args: string[]): { output: () => string; stop: () => void };
  dispose(): void;
}

/** Prepares a kubeconfig and a temporary discovery cache for one kubectl version. */
export function kubectlFor(server: ApiServer, version: string): Kubectl {
  const dir = mkdtempSync(join(tmpdir(), 'tenon-kubectl-'));
  const kubeconfig = join(dir, 'config');
  writeFileSync(kubeconfig, server.kubeConfigYaml);
  const base = ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache')];
  const bin = kubectlBinary(version);
  return {
    run: (args, stdin) =>
      new Promise((resolve) => {
        const child = execFile(bin, [...base, ...args], { timeout: 20_000 }, (err, stdout, stderr) => {
          const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
          resolve({ code, stdout, stderr });
        });
        if (stdin !== undefined) child.stdin?.end(stdin);
      }),
    start: (args) => {
      const child = spawn(bin, [...base, ...args]);
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      return { output: () => out, stop: () => child.kill() };
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A kubectl of `version` against a server started for the enclosing describe block (before its tests, closed after
 * them); `setup` runs once both are up.
 */
export function kubectlOnServer(
  version: string,
  opts: ApiServerOptions = {},
  setup?: (k: Kubectl) => Promise<unknown>,
): Kubectl {
  let server: ApiServer | undefined;
  let k: Kubectl | undefined;
  beforeAll(async () => {
    server = await startApiServer(opts);
    k = kubectlFor(server, version);
    await setup?.(k);
  });
  afterAll(async () => {
    k?.dispose();
    await server?.close();
  });
  const current = (): Kubectl => {
    if (!k) throw new Error('kubectl used outside its describe block');
    return k;
  };
  return {
    run: (args, stdin) => current().run(args, stdin),
    start: (args) => current().start(args),
    dispose: () => undefined,
  };
}
