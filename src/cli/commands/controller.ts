import { loadKubeConfig } from './kubeconfig-file.js';
import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { systemClock } from '../../clock/index.js';
import type { KubeConfig } from '@kubernetes/client-node';
import { fencedTransport, KubeClient, transportFromKubeConfig, type RequestPolicy } from '../../kube/index.js';
import { startMetricsServer, startProbeServer } from '../../observability/health-server.js';
import { createLogger, type Logger } from '../../observability/logger.js';
import { Metrics } from '../../observability/metrics.js';
import { ReconcileContext } from '../../observability/reconcile-context.js';
import { runLeaderElection, type Leadership } from '../../operator/leadership.js';
import { startOperator } from '../../operator/operator.js';
import { coreApis, readinessCheck } from '../../operator/readiness.js';
import { optionsFromEnv, type Options } from '../../settings/options.js';
import { UsageError } from '../usage-error.js';
import { providers } from './controller-providers.js';

/** A request unanswered after this is abandoned; lists of large clusters stay well within it. */
const requestTimeoutMs = 60_000;

function elect(o: {
  kubeConfig: KubeConfig;
  policy: RequestPolicy;
  options: Options;
  log: Logger;
}): Leadership | undefined {
  if (o.options.disableLeaderElection) return undefined;
  const { qps, burst, timeoutMs, maxRetries } = o.policy;
  return runLeaderElection({
    kubeConfig: o.kubeConfig,
    policy: { qps, burst, timeoutMs, maxRetries },
    namespace: o.options.leaderElectionNamespace || 'kube-system',
    name: o.options.leaderElectionName,
    log: o.log,
    // As Karpenter: a replica that lost the lease exits and its pod restarts as a standby.
    onLost: () => process.exit(1),
  });
}

async function run(flags: {
  kubeconfig?: string;
  cloudProvider: string;
  preferencePolicy?: string;
  isolatedVpc?: boolean;
}): Promise<void> {
  // Flags win over the environment variables of the same settings (Karpenter's --preference-policy / PREFERENCE_POLICY).
  const options = optionsFromEnv({
    ...process.env,
    ...(flags.preferencePolicy === undefined ? {} : { PREFERENCE_POLICY: flags.preferencePolicy }),
    ...(flags.isolatedVpc ? { ISOLATED_VPC: 'true' } : {}),
  });
  const make = providers[flags.cloudProvider];
  if (!make)
    throw new UsageError(
      `--cloud-provider: unknown provider "${flags.cloudProvider}": known: ${Object.keys(providers).join(', ')}`,
    );
  const reconcileContext = new ReconcileContext();
  const log = createLogger({ level: options.logLevel, mixin: () => reconcileContext.fields() });
  const kc = loadKubeConfig(flags.kubeconfig);
  const policy = {
    clock: systemClock,
    qps: options.kubeClientQps,
    burst: options.kubeClientBurst,
    timeoutMs: requestTimeoutMs,
    maxRetries: 5,
  };
  const transport = await transportFromKubeConfig(kc, { policy });
  // The elector renews from a worker thread with a client (and so a rate limiter) of its own, as client-go's renew
  // goroutine: neither a burst of the controllers' requests nor a long synchronous stretch of this thread can make
  // it miss the renew deadline.
  const leadership = elect({ kubeConfig: kc, policy, options, log });
  // Every write of the controllers is fenced by the lease; only the elector writes unfenced (the Lease itself).
  const client = new KubeClient(leadership ? fencedTransport(transport, () => leadership.leading()) : transport);
  const metrics = new Metrics();
  metrics.collectProcessMetrics();
  const { stop: stopProvider, ...parts } = await make({
    client,
    clock: systemClock,
    options,
    kubeConfig: kc,
    log,
    metrics,
    readFile,
  });
  let synced = false;
  const ready = readinessCheck({ client, synced: () => synced, apis: [...coreApis, ...(parts.requiredApis ?? [])] });
  const host = options.bindAddress;
  const probes = await startProbeServer({ port: options.healthProbePort, host, ready });
  const metricsServer = await startMetricsServer({ port: options.metricsPort, host, metrics });
  let stopping = false;
  const operator = startOperator({
    client,
    ...parts,
    clock: systemClock,
    options,
    log,
    metrics,
    reconcileContext,
    onSynced: () => (synced = true),
    waitToLead: leadership ? () => leadership.won : undefined,
  });
  const shutdown = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    synced = false;
    // Releasing first closes the fence, so nothing is written after the Lease is handed back.
    await leadership?.release().catch((e: unknown) => log.warn({ err: e }, 'lease not released'));
    await (await operator).stop();
    stopProvider?.();
    await Promise.all([probes.close(), metricsServer.close()]);
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
  await operator;
  if (!stopping) log.info({ cluster: options.clusterName, provider: flags.cloudProvider }, 'controllers running');
}

/** `tenon controller`: runs Tenon's controllers against any cluster. */
export function registerController(program: Command): void {
  program
    .command('controller')
    .description("run the controllers against a cluster (settings from environment variables named like Karpenter's)")
    .option('--kubeconfig <file>', 'kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)')
    .option('--cloud-provider <name>', `cloud provider: ${Object.keys(providers).join(', ')}`, 'fake')
    .option(
      '--preference-policy <policy>',
      'Respect (default) or Ignore: preferred affinities and ScheduleAnyway spreads (default: $PREFERENCE_POLICY)',
    )
    .option(
      '--isolated-vpc',
      'no Pricing API calls (it has no VPC endpoint): on-demand prices from the list shipped with Tenon (default: $ISOLATED_VPC)',
    )
    .action(run);
}
