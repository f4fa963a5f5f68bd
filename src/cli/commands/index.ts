import type { Command } from 'commander';

/** A command: its name and a loader of its registration (a command's modules load only when it runs). */
interface CommandEntry {
  name: string;
  load: () => Promise<(program: Command) => void>;
}

/** Every CLI command, in the order `tenon --help` lists them. Add one line per new command. */
const commands: readonly CommandEntry[] = [
  { name: 'play', load: async () => (await import('./play.js')).registerPlay },
  { name: 'serve', load: async () => (await import('./serve.js')).registerServe },
  { name: 'apiserver', load: async () => (await import('./apiserver.js')).registerApiServer },
  { name: 'scenario', load: async () => (await import('./scenario.js')).registerScenario },
  { name: 'crds', load: async () => (await import('./crds.js')).registerCrds },
  { name: 'validate', load: async () => (await import('./validate.js')).registerValidate },
  { name: 'lint', load: async () => (await import('./lint.js')).registerLint },
  { name: 'controller', load: async () => (await import('./controller.js')).registerController },
  { name: 'instance-types', load: async () => (await import('./instance-types.js')).registerInstanceTypes },
  { name: 'explain', load: async () => (await import('./explain.js')).registerExplain },
];

/** The names of every command. */
export const commandNames: readonly string[] = commands.map((c) => c.name);

/**
 * Registers commands on the program: only `only` when it names one (the command being run loads nothing of the
 * others), every command otherwise (help, an unknown command).
 */
export async function registerCommands(program: Command, only?: string): Promise<void> {
  const chosen = commands.filter((c) => only === undefined || c.name === only);
  for (const register of await Promise.all((chosen.length > 0 ? chosen : commands).map((c) => c.load())))
    register(program);
}
