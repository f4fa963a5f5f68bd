import type { Command } from 'commander';
import { registerPlay } from './play.js';

/** Every CLI command, in the order `tenon --help` lists them. Add one line per new command. */
const registrations: ReadonlyArray<(program: Command) => void> = [registerPlay];

/** Registers every command on the program. */
export function registerCommands(program: Command): void {
  for (const register of registrations) register(program);
}
