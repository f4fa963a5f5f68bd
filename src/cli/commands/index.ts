import type { Command } from 'commander';
import { registerLint } from './lint.js';
import { registerPlay } from './play.js';
import { registerScenario } from './scenario.js';
import { registerServe } from './serve.js';
import { registerController } from './controller.js';
import { registerCrds } from './crds.js';
import { registerValidate } from './validate.js';
import { registerInstanceTypes } from './instance-types.js';
import { registerApiServer } from './apiserver.js';

/** Every CLI command, in the order `tenon --help` lists them. Add one line per new command. */
const registrations: ReadonlyArray<(program: Command) => void> = [
  registerPlay,
  registerServe,
  registerApiServer,
  registerScenario,
  registerCrds,
  registerValidate,
  registerLint,
  registerController,
  registerInstanceTypes,
];

/** Registers every command on the program. */
export function registerCommands(program: Command): void {
  for (const register of registrations) register(program);
}
