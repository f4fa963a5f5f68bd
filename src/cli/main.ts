/** The `tenon` command line: one file per command under ./commands, wired in commands/index.ts. */
import { Command } from 'commander';
import { relaunchWithLeanMalloc } from '../sim/playground/lean-malloc.js';
import { registerCommands } from './commands/index.js';
import { reportError } from './exit-codes.js';

/** Commands that run a playground, which starts again with the playground's malloc settings (lean-malloc.ts). */
const playgroundCommands = new Set(['play', 'serve', 'scenario']);

/** Builds the CLI program with every command registered. */
export function buildProgram(): Command {
  const program = new Command('tenon')
    .description('A Kubernetes node autoscaler speaking the Karpenter v1 API, with an embedded playground.')
    .version('0.1.0')
    // Errors end in reportError (one line, exit 2 for usage errors) instead of commander's own process.exit.
    .exitOverride();
  registerCommands(program);
  return program;
}

const relaunched = playgroundCommands.has(process.argv[2] ?? '') ? await relaunchWithLeanMalloc() : undefined;
if (relaunched === undefined) {
  await buildProgram()
    .parseAsync(process.argv)
    .catch((e: unknown) => {
      process.exitCode = reportError(e, (line) => process.stderr.write(line));
    });
} else process.exitCode = relaunched;
