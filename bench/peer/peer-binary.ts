/**
 * Builds the Go peer program (bench/peer/*.go: Karpenter's scheduler behind a JSON file) once per source version and
 * caches it outside the work tree, at ~/.cache/tenon/bin/peer-<hash of the sources and toolchain>.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Go toolchain Karpenter v1.15.0 needs; the go command fetches it from the module proxy when missing. */
export const goToolchain = 'go1.26.10';

/** The folder holding go.mod and the Go sources (bench/peer in the source tree, also when run from dist/). */
export function peerSourceDir(): string {
  for (const rel of ['./', '../../../bench/peer/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(join(dir, 'go.mod'))) return dir;
  }
  throw new Error('bench/peer/go.mod not found next to the package');
}

function sourceHash(dir: string): string {
  const h = createHash('sha256').update(goToolchain);
  const files = readdirSync(dir)
    .filter((f) => f === 'go.mod' || f === 'go.sum' || f.endsWith('.go'))
    .sort();
  for (const f of files) h.update(`\0${f}\0`).update(readFileSync(join(dir, f)));
  return h.digest('hex').slice(0, 16);
}

/** The cached binary's path, building it first if needed (a few minutes the first time: `nice go build`). */
export function peerBinary(log: (line: string) => void): string {
  const dir = peerSourceDir();
  const cache = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'tenon', 'bin');
  const bin = join(cache, `peer-${sourceHash(dir)}`);
  if (existsSync(bin)) return bin;
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.error || go.status !== 0)
    throw new Error('the peer benchmark needs Go on PATH (go1.21 or later; it fetches ' + goToolchain + ' itself)');
  mkdirSync(cache, { recursive: true });
  const tmp = `${bin}.tmp-${process.pid}`;
  log(`building Karpenter's scheduler (bench/peer, ${goToolchain}) into ${bin} ...`);
  execFileSync('nice', ['-n', '10', 'go', 'build', '-o', tmp, '.'], {
    cwd: dir,
    env: { ...process.env, GOTOOLCHAIN: goToolchain, GOFLAGS: '-mod=readonly' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  renameSync(tmp, bin);
  return bin;
}
