/** The playground's commands start again in a child process with glibc's malloc settings (lean-malloc.ts). */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasLeanMalloc, leanMallocEnv } from '../../src/sim/playground/lean-malloc.js';

const fixture = fileURLToPath(new URL('./fixtures/relaunch.ts', import.meta.url));

describe('the playground malloc settings', () => {
  it('are wanted on Linux until the environment has them, and never elsewhere', () => {
    expect(hasLeanMalloc({}, 'linux')).toBe(false);
    expect(hasLeanMalloc({ ...leanMallocEnv }, 'linux')).toBe(true);
    expect(hasLeanMalloc({}, 'darwin')).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    'runs the command again with them, with its arguments, and exits with the child',
    () => {
      const env = { ...process.env };
      for (const k of Object.keys(leanMallocEnv)) delete env[k];
      const r = spawnSync(process.execPath, ['--import', 'tsx', fixture, 'play', '--seed', '3'], {
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.stderr).toBe('');
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^child pid=\d+ MALLOC_MMAP_THRESHOLD_=131072 args=play,--seed,3$/);
      expect(lines[1]).toMatch(/^parent pid=\d+ child exited 7$/);
      expect(lines[0]?.match(/pid=(\d+)/)?.[1]).not.toBe(lines[1]?.match(/pid=(\d+)/)?.[1]);
      expect(r.status).toBe(7);
    },
  );

  it('does not start again when the environment has them', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', fixture], {
      env: { ...process.env, ...leanMallocEnv },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toMatch(/^child pid=\d+ MALLOC_MMAP_THRESHOLD_=131072 args=\n$/);
    expect(r.status).toBe(7);
  });
});
