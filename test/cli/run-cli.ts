/** Runs `tenon` commands in this process (parsed by the real program) and returns what they printed. */
import { Command } from 'commander';
import { vi } from 'vitest';
import { registerCommands } from '../../src/cli/commands/index.js';

/** What a command printed and the exit code it set. */
export interface CliRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Parses `args` (after `tenon`) with every command registered, capturing stdout and stderr. */
export async function runCli(args: string[]): Promise<CliRun> {
  const program = new Command('tenon').exitOverride();
  await registerCommands(program, args[0]);
  let stdout = '';
  let stderr = '';
  const out = vi
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  const before = process.exitCode;
  process.exitCode = 0;
  try {
    await program.parseAsync(args, { from: 'user' });
    return { stdout, stderr, exitCode: Number(process.exitCode ?? 0) };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = before;
  }
}
