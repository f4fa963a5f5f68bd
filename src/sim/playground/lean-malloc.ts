/**
 * glibc's malloc settings for the playground (docs/adr/0012-playground-memory-budget.md). Packing each stored object
 * deflates it with a dictionary, and every call allocates and frees zlib's window and hash tables (a few hundred
 * KB). glibc serves a freed block of that size again from the main heap, which it rarely gives back. With a fixed
 * mmap threshold those blocks are mapped and unmapped instead, so the malloc heap stays small. malloc reads these
 * variables once, when the process starts, so the playground's commands start again in a child process that has
 * them.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** The environment the playground runs with (glibc reads it; other C libraries ignore it). */
export const leanMallocEnv: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** True when this process already runs with leanMallocEnv, or is not on Linux (where it would mean nothing). */
export function hasLeanMalloc(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  return platform !== 'linux' || Object.keys(leanMallocEnv).every((k) => env[k] !== undefined);
}

/** Set in the relaunched child's environment: it has a parent to outlive no longer than. */
const relaunchedMarker = 'TENON_RELAUNCHED';

/**
 * In the relaunched child: when the parent goes (even by SIGKILL), its end of the IPC channel closes, and the
 * child stops as on SIGTERM, so no playground is left serving with nobody to stop it.
 */
function followParent(): void {
  if (process.env[relaunchedMarker] !== '1' || !process.channel) return;
  // The channel must not keep the child alive on its own (a finished `tenon play` exits).
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

/**
 * Runs this same command again in a child process with leanMallocEnv and resolves to its exit code; resolves to
 * undefined at once when this process already has it (the caller goes on). SIGINT, SIGTERM and SIGHUP sent to
 * this process are passed on to the child, which stops; this process waits for it and exits with its code. A
 * terminal's Ctrl-C reaches both (one process group): the child's stop path takes a repeated signal in its stride.
 */
export function relaunchWithLeanMalloc(): Promise<number | undefined> {
  if (hasLeanMalloc()) {
    followParent();
    return Promise.resolve(undefined);
  }
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...leanMallocEnv, [relaunchedMarker]: '1' },
  });
  const passOn = (signal: NodeJS.Signals): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  process.on('SIGINT', passOn);
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
