import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { startPlayground } from '../../sim/playground/playground.js';
import { useLeanHeap } from '../../sim/playground/lean-heap.js';
import { untilInterrupted } from './until-interrupted.js';

interface ServeFlags {
  port: string;
  kubeconfig: string;
  speed: string;
  seed: string;
  zones: string;
  defaults: boolean;
  state?: string;
}

function positive(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}: must be a positive number, got "${text}"`);
  return n;
}

async function serve(flags: ServeFlags): Promise<void> {
  const speed = positive('--speed', flags.speed);
  useLeanHeap();
  const stateFile = flags.state ? resolve(flags.state) : undefined;
  const pg = await startPlayground({ port: Number(flags.port), seed: positive('--seed', flags.seed), zones: positive('--zones', flags.zones), defaults: flags.defaults, stateFile });
  const kubeconfig = resolve(flags.kubeconfig);
  writeFileSync(kubeconfig, pg.server.kubeConfigYaml, { mode: 0o600 });
  const stopClock = pg.clock.run({ speed });
  process.stdout.write(
    [
      `Tenon playground serving at ${pg.server.url} (simulated time runs at ${speed}x, jumping ahead when the cluster is idle)`,
      `kubeconfig: ${kubeconfig}`,
      ...(stateFile ? [`state: ${stateFile} (${pg.server.restored ? 'loaded' : 'new'}; saved on exit and every 60s)`] : []),
      '',
      'Try:',
      `  kubectl --kubeconfig ${kubeconfig} get nodepools,ec2nodeclasses,nodeclaims,nodes`,
      `  kubectl --kubeconfig ${kubeconfig} create deployment web --image=nginx --replicas=10 -- sleep inf  # then: kubectl set resources deployment web --requests=cpu=500m`,
      '',
      'Ctrl-C stops it.',
      '',
    ].join('\n'),
  );
  await untilInterrupted(() => {
    stopClock();
    return pg.stop();
  });
}

/** `tenon serve`: the playground's API server, world and controllers until Ctrl-C. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run a live simulated cluster (API server + simulated EC2 and world + Tenon) for kubectl, until Ctrl-C')
    .option('--port <port>', 'API server port on 127.0.0.1 (0: any free port)', '0')
    .option('--kubeconfig <file>', 'where to write the kubeconfig', 'tenon.kubeconfig')
    .option('--speed <n>', 'simulated seconds per wall second', '1')
    .option('--seed <s>', 'seed of the simulated world', '1')
    .option('--zones <n>', 'zones of the simulated region (3-6)', '3')
    .option('--no-defaults', 'do not install the default EC2NodeClass and NodePool')
    .option(
      '--state <file>',
      'keep the API objects and simulated time in this file (loaded at start, saved on exit and every 60s); simulated EC2 instances are not kept, so Tenon replaces the NodeClaims whose instances are gone',
    )
    .action(serve);
}
