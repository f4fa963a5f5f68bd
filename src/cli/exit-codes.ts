/** How the CLI ends on an error: one line naming the problem, never a stack trace; exit 2 for usage errors. */
import { CommanderError } from 'commander';
import { OptionError } from '../settings/options.js';
import { UsageError } from './usage-error.js';

/** The exit code of a usage error (a bad flag, file or setting), as POSIX utilities use it. */
export const usageExitCode = 2;

/** Reports `e` on stderr in one line and returns the process's exit code. */
export function reportError(e: unknown, stderr: (line: string) => void): number {
  if (e instanceof CommanderError) {
    // Commander has printed its own message (unknown option, missing argument); help and --version end with 0.
    return e.exitCode === 0 ? 0 : usageExitCode;
  }
  const message = e instanceof Error ? e.message : String(e);
  stderr(`error: ${message}\n`);
  return UsageError.is(e) || e instanceof OptionError || isMissingFile(e) ? usageExitCode : 1;
}

/** A file the user named that cannot be read (the message already names the path). */
function isMissingFile(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES';
}
