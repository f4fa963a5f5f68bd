/** The `tenon` command line: one file per command under ./commands, wired in commands/index.ts. */
import { Command } from 'commander';
import { commandNames, registerCommands } from './commands/index.js';
import { tenonVersion } from '../version.js';
import { reportError } from './exit-codes.js';

/** Commands that run a playground, which starts again with the playground's malloc settings (lean-malloc.ts). */
const playgroundCommands: ReadonlySet<string> = new Set(['play', 'serve', 'scenario']);

/**
 * Builds the CLI program for `argv`: with the command it names registered alone (so running one command loads
 * none of the others' modules), with none for `--version`, with every command otherwise (help, unknown names).
 */
export async function buildProgram(argv: readonly string[] = process.argv): Promise<Command> {
  const program = new Command('tenon')
    .description('A Kubernetes node autoscaler speaking the Karpenter v1 API, with an embedded playground.')
    .version(tenonVersion)
    // Errors end in reportError (one line, exit 2 for usage errors) instead of commander's own process.exit.
    .exitOverride();
  const first = argv[2];
  if (first === '--version' || first === '-V') return program;
  await registerCommands(program, first !== undefined && commandNames.includes(first) ? first : undefined);
  return program;
}

async function relaunched(): Promise<number | undefined> {
  if (!playgroundCommands.has(process.argv[2] ?? '')) return undefined;
  // Only the playground's commands load its allocator settings.
  const { relaunchWithLeanMalloc } = await import('../sim/playground/lean-malloc.js');
  return relaunchWithLeanMalloc();
}

const exitCode = await relaunched();
if (exitCode === undefined) {
  await buildProgram()
    .then((program) => program.parseAsync(process.argv))
    .catch((e: unknown) => {
      process.exitCode = reportError(e, (line) => process.stderr.write(line));
    });
} else process.exitCode = exitCode;
