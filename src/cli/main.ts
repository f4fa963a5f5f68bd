/** The `tenon` command line: one file per command under ./commands, wired in commands/index.ts. */
import { Command } from 'commander';
import { registerCommands } from './commands/index.js';

/** Builds the CLI program with every command registered. */
export function buildProgram(): Command {
  const program = new Command('tenon')
    .description('A Kubernetes node autoscaler speaking the Karpenter v1 API, with an embedded playground.')
    .version('0.1.0');
  registerCommands(program);
  return program;
}

await buildProgram().parseAsync(process.argv);
