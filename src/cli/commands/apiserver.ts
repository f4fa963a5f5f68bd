import { resolve } from 'node:path';
import type { Command } from 'commander';
import { StateFileError, startApiServer } from '../../apiserver/index.js';
import { defaultKubeconfig, writePrivateFile } from './tenon-dir.js';
import { untilInterrupted } from './until-interrupted.js';

interface ApiServerFlags {
  port: string;
  kubeconfig: string;
  state?: string;
  snapshotInterval: string;
}

function port(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`--port: must be a port number (0 for any free port), got "${text}"`);
  return n;
}

function seconds(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--snapshot-interval: must be a number of seconds, got "${text}"`);
  return n;
}

async function run(flags: ApiServerFlags): Promise<void> {
  const stateFile = flags.state ? resolve(flags.state) : undefined;
  const server = await startApiServer({
    port: port(flags.port),
    stateFile,
    snapshotIntervalMs: seconds(flags.snapshotInterval) * 1000,
  }).catch((e: unknown) => {
    // A state file that cannot be read is the user's to fix: say which file and why, without a stack.
    if (!(e instanceof StateFileError)) throw e;
    process.stderr.write(`tenon apiserver: ${e.message}\n`);
    process.exit(2);
  });
  const kubeconfig = writePrivateFile(flags.kubeconfig, server.kubeConfigYaml);
  const state = stateFile
    ? `state: ${stateFile} (${server.restored ? 'loaded' : 'new'}; saved on exit and every ${flags.snapshotInterval}s)`
    : 'state: in memory only (--state FILE keeps it)';
  process.stdout.write(
    [`Tenon API server serving at ${server.url}`, `kubeconfig: ${kubeconfig}`, state, 'Ctrl-C stops it.', ''].join(
      '\n',
    ),
  );
  // Closing saves the state file (when there is one), so a failure here is a failed save.
  await untilInterrupted(() => server.close());
}

/** `tenon apiserver`: the embedded API server alone, with Tenon's CRDs installed, until Ctrl-C. */
export function registerApiServer(program: Command): void {
  program
    .command('apiserver')
    .description("run the embedded Kubernetes API server alone (Tenon's CRDs installed) for kubectl, until Ctrl-C")
    .option('--port <port>', 'port on 127.0.0.1 (0: any free port)', '0')
    .option('--kubeconfig <file>', 'where to write the kubeconfig (a new folder gets a .gitignore)', defaultKubeconfig)
    .option(
      '--state <file>',
      'load the objects from this file at start (if it exists) and save them to it on exit and periodically',
    )
    .option('--snapshot-interval <seconds>', 'how often --state is saved while running (0: only on exit)', '60')
    .action(run);
}
