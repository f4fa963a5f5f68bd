import { KubeConfig } from '@kubernetes/client-node';
import type { Command } from 'commander';
import { systemClock } from '../../clock/index.js';
import { KubeClient, transportFromKubeConfig } from '../../kube/index.js';
import { startHealthServer } from '../../observability/health-server.js';
import { createLogger } from '../../observability/logger.js';
import { Metrics } from '../../observability/metrics.js';
import { acquireLeadership } from '../../operator/leadership.js';
import { startOperator } from '../../operator/operator.js';
import { optionsFromEnv } from '../../settings/options.js';
import { providers } from './controller-providers.js';

async function run(flags: { kubeconfig?: string; cloudProvider: string }): Promise<void> {
  const options = optionsFromEnv(process.env);
  const log = createLogger({ level: options.logLevel });
  const make = providers[flags.cloudProvider];
  if (!make) throw new Error(`--cloud-provider: unknown provider "${flags.cloudProvider}": known: ${Object.keys(providers).join(', ')}`);
  const kc = new KubeConfig();
  if (flags.kubeconfig) kc.loadFromFile(flags.kubeconfig);
  else kc.loadFromDefault();
  const client = new KubeClient(await transportFromKubeConfig(kc));
  const metrics = new Metrics();
  let ready = false;
  const health = await startHealthServer({ port: options.healthProbePort, metrics, ready: () => ready });
  const namespace = options.leaderElectionNamespace || 'kube-system';
  const release = options.disableLeaderElection ? () => undefined : await acquireLeadership({ client, clock: systemClock, namespace, log, onLost: () => process.exit(1) });
  const { stop: stopProvider, ...parts } = await make({ client, clock: systemClock, options, kubeConfig: kc, log });
  const op = await startOperator({ client, ...parts, clock: systemClock, options, log, metrics });
  ready = true;
  log.info({ cluster: options.clusterName, provider: flags.cloudProvider }, 'controllers running');
  const shutdown = async (): Promise<void> => {
    ready = false;
    release();
    await op.stop();
    stopProvider?.();
    await health.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

/** `tenon controller`: runs Tenon's controllers against any cluster. */
export function registerController(program: Command): void {
  program
    .command('controller')
    .description('run the controllers against a cluster (settings from environment variables named like Karpenter\'s)')
    .option('--kubeconfig <file>', 'kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)')
    .option('--cloud-provider <name>', `cloud provider: ${Object.keys(providers).join(', ')}`, 'fake')
    .action(run);
}
