/**
 * glibc's malloc settings for the playground. Packing each stored object deflates it with a dictionary, and every
 * call allocates and frees zlib's window and hash tables (a few hundred KB). glibc serves a freed block of that
 * size again from the main heap, which it rarely gives back, so the process kept 80 MB of malloc heap at 20,000 pods
 * and 87 MB at 150,000. With a fixed mmap threshold those blocks are mapped and unmapped instead: the malloc heap
 * held 46 MB and the peak RSS was 34 MB lower at 20,000 pods, at the same speed (docs/adr/0019-bounded-headroom.md).
 * malloc reads these variables once, when the process starts, so the playground's commands start again in a child
 * process that has them.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** The environment the playground runs with (glibc reads it; other C libraries ignore it). */
export const leanMallocEnv: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** True when this process already runs with leanMallocEnv, or is not on Linux (where it would mean nothing). */
export function hasLeanMalloc(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'linux' || Object.keys(leanMallocEnv).every((k) => env[k] !== undefined);
}

/**
 * Runs this same command again in a child process with leanMallocEnv and resolves to its exit code; resolves to
 * undefined at once when this process already has it (the caller goes on). A terminal's Ctrl-C reaches the child
 * directly (it is in the same process group), so only SIGTERM and SIGHUP are passed on.
 */
export function relaunchWithLeanMalloc(): Promise<number | undefined> {
  if (hasLeanMalloc()) return Promise.resolve(undefined);
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, ...leanMallocEnv } });
  const passOn = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  // Ctrl-C: the child stops itself; this process waits for it rather than dying first.
  const ignore = (): void => undefined;
  process.on('SIGINT', ignore);
  process.on('SIGTERM', passOn);
  process.on('SIGHUP', passOn);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + constants.signals[signal] : 1)));
    child.on('error', (e) => {
      process.stderr.write(`could not start the playground process: ${e.message}\n`);
      resolve(1);
    });
  });
}
