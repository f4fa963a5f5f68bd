import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { systemClock } from '../../clock/index.js';
import { startHealthServer } from '../../observability/health-server.js';
import { kubernetesVersionProblem } from '../../sim/machines/kubernetes-version.js';
import { fanOut, type LogTarget } from '../../sim/playground/log-sink.js';
import { playgroundCluster, playgroundKubernetesVersion } from '../../sim/playground/cluster-identity.js';
import { startPlayground } from '../../sim/playground/playground.js';
import { useLeanHeap } from '../../sim/playground/lean-heap.js';
import { serveBanner } from './serve-banner.js';
import { defaultKubeconfig, ensureDirOf, tenonDir, writePrivateFile } from './tenon-dir.js';
import { untilInterrupted } from './until-interrupted.js';

interface ServeFlags {
  port: string;
  kubeconfig: string;
  speed: string;
  fastForward?: boolean;
  seed: string;
  zones: string;
  defaults: boolean;
  state?: string;
  clusterName: string;
  kubernetesVersion: string;
  logFile: string;
  verbose?: boolean;
  metricsPort: string;
  cluster?: string;
}

/** A usage error: one line naming the flag and the rule, exit code 2. */
class UsageError extends Error {}

function positive(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${name}: must be a positive number, got "${text}"`);
  return n;
}

function port(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`${name}: must be a port number (0 for any free port), got "${text}"`);
  return n;
}

function clusterName(text: string): string {
  if (!/^[A-Za-z][A-Za-z0-9-]{0,99}$/.test(text))
    throw new UsageError(
      `--cluster-name: must start with a letter and hold only letters, digits and hyphens (an EKS cluster name), got "${text}"`,
    );
  return text;
}

function kubernetesVersion(text: string): string {
  const problem = kubernetesVersionProblem(text);
  if (problem) throw new UsageError(`--kubernetes-version: ${problem}`);
  return text;
}

function logTargets(flags: ServeFlags): { targets: LogTarget[]; logFile: string } {
  const logFile = ensureDirOf(flags.logFile);
  const file = createWriteStream(logFile);
  const targets: LogTarget[] = [{ write: (text) => file.write(text) }];
  if (flags.verbose) targets.push({ write: (text) => process.stdout.write(text) });
  return { targets, logFile };
}

async function serve(flags: ServeFlags): Promise<void> {
  const speed = positive('--speed', flags.speed);
  const options = {
    port: port('--port', flags.port),
    seed: positive('--seed', flags.seed),
    zones: positive('--zones', flags.zones),
    clusterName: clusterName(flags.clusterName),
    kubernetesVersion: kubernetesVersion(flags.kubernetesVersion),
  };
  const metricsPort = port('--metrics-port', flags.metricsPort);
  useLeanHeap();
  const stateFile = flags.state ? resolve(flags.state) : undefined;
  if (flags.cluster && flags.state)
    throw new UsageError('--state: not with --cluster (the cluster keeps its own state)');
  const cluster = flags.cluster ? { kubeconfig: resolve(flags.cluster), startMs: systemClock.now() } : undefined;
  const { targets, logFile } = logTargets(flags);
  const pg = await startPlayground({
    ...options,
    defaults: flags.defaults,
    stateFile,
    cluster,
    startTime: systemClock.now(),
    logDestination: fanOut(targets),
    controllerPod: !cluster,
  });
  const kubeconfig = cluster ? cluster.kubeconfig : writePrivateFile(flags.kubeconfig, pg.kubeConfigYaml);
  const health = await startHealthServer({
    port: metricsPort,
    metrics: pg.operator.context.metrics,
    ready: () => pg.operator.ready(),
  });
  const stopClock = pg.clock.run({ speed, jumpWhenIdle: flags.fastForward ?? false });
  const banner = serveBanner({
    url: pg.url,
    clusterName: pg.clusterName,
    kubernetesVersion: pg.kubernetesVersion,
    zones: pg.ec2.account.zones,
    kubeconfig,
    logFile,
    logsCommand: pg.controllerLog ? 'kubectl logs -n kube-system tenon -f' : undefined,
    verbose: flags.verbose ?? false,
    metricsUrl: `http://127.0.0.1:${health.port}/metrics`,
    speed,
    fastForward: flags.fastForward ?? false,
    defaults: flags.defaults && !pg.restored,
    state: stateFile ? `${stateFile} (${pg.restored ? 'loaded' : 'new'}; saved on exit and every 60s)` : undefined,
  });
  process.stdout.write(banner.join('\n'));
  await untilInterrupted(async () => {
    stopClock();
    await health.close();
    await pg.stop();
  });
}

/** `tenon serve`: the playground's API server, world and controllers until Ctrl-C. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'run a live simulated cluster (API server + simulated EC2 and world + Tenon) for kubectl, until Ctrl-C',
    )
    .option('--port <port>', 'API server port on 127.0.0.1 (0: any free port)', '0')
    .option('--kubeconfig <file>', 'where to write the kubeconfig (a new folder gets a .gitignore)', defaultKubeconfig)
    .option(
      '--cluster-name <name>',
      "the cluster's name, as Karpenter's examples' ${CLUSTER_NAME}: discovery tags, node role, default EC2NodeClass",
      playgroundCluster,
    )
    .option(
      '--kubernetes-version <minor>',
      'Kubernetes version of the API server, the AMIs aliases resolve to and the kubelets',
      playgroundKubernetesVersion,
    )
    .option('--speed <n>', "simulated seconds per wall second (time starts at this host's time)", '1')
    .option('--fast-forward', 'also jump simulated time ahead to the next timer whenever the cluster is idle')
    .option('--seed <s>', 'seed of the simulated world', '1')
    .option('--zones <n>', 'zones of the simulated region (3-6)', '3')
    .option('--no-defaults', 'do not install the default EC2NodeClass and NodePool')
    .option('--log-file <file>', "where the controllers' JSON logs go", `${tenonDir}/tenon.log`)
    .option('--verbose', "also print the controllers' logs here")
    .option('--metrics-port <port>', 'port of /metrics, /healthz and /readyz on 127.0.0.1 (0: any free port)', '0')
    .option(
      '--state <file>',
      'keep the API objects and simulated time in this file (loaded at start, saved on exit and every 60s); simulated EC2 instances are not kept, so Tenon replaces the NodeClaims whose instances are gone',
    )
    .option(
      '--cluster <kubeconfig>',
      'attach to this existing cluster instead of serving the embedded API server (its kube-scheduler and kube-controller-manager stand in for the simulated ones)',
    )
    .action(async (flags: ServeFlags) => {
      try {
        await serve(flags);
      } catch (e: unknown) {
        if (!(e instanceof UsageError)) throw e;
        process.stderr.write(`tenon serve: ${e.message}\n`);
        process.exitCode = 2;
      }
    });
}
