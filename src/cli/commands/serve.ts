import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { systemClock } from '../../clock/index.js';
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
  cluster?: string;
}

function positive(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}: must be a positive number, got "${text}"`);
  return n;
}

async function serve(flags: ServeFlags): Promise<void> {
  const speed = positive('--speed', flags.speed);
  if (flags.cluster && flags.state) throw new Error('--state: not with --cluster (the cluster keeps its own state)');
  useLeanHeap();
  const stateFile = flags.state ? resolve(flags.state) : undefined;
  const cluster = flags.cluster ? { kubeconfig: resolve(flags.cluster), startMs: systemClock.now() } : undefined;
  const pg = await startPlayground({ port: Number(flags.port), seed: positive('--seed', flags.seed), zones: positive('--zones', flags.zones), defaults: flags.defaults, stateFile, cluster });
  const kubeconfig = cluster ? cluster.kubeconfig : resolve(flags.kubeconfig);
  if (!cluster) writeFileSync(kubeconfig, pg.kubeConfigYaml, { mode: 0o600 });
  // An attached cluster runs on the wall clock: simulated time must not jump ahead of it.
  const stopClock = pg.clock.run({ speed, jumpWhenIdle: !cluster });
  process.stdout.write(
    [
      cluster
        ? `Tenon's simulated EC2, kubelets and controllers attached to ${pg.url} (its own scheduler and controllers run the workloads; simulated time runs at ${speed}x)`
        : `Tenon playground serving at ${pg.url} (simulated time runs at ${speed}x, jumping ahead when the cluster is idle)`,
      `kubeconfig: ${kubeconfig}`,
      ...(stateFile ? [`state: ${stateFile} (${pg.restored ? 'loaded' : 'new'}; saved on exit and every 60s)`] : []),
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
    .option('--cluster <kubeconfig>', 'attach to this existing cluster instead of serving the embedded API server (its kube-scheduler and kube-controller-manager stand in for the simulated ones)')
    .action(serve);
}
