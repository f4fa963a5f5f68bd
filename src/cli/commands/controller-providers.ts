/**
 * The cloud providers `tenon controller` can run with: `fake` (instances that exist only in memory, whose
 * simulated kubelets register Nodes in the cluster, like Karpenter's kwok provider: for trying the controllers
 * against a real cluster without a cloud) and `aws` (EC2 through the AWS SDK, as Karpenter's AWS provider).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Clock } from '../../clock/index.js';
import { clusterCaData, type KubeClient } from '../../kube/index.js';
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import type { OperatorOptions } from '../../operator/operator.js';
import type { RequiredApi } from '../../operator/readiness.js';
import { wireAwsProvider } from '../../providers/aws/index.js';
import { createSdkAwsPort, createSdkInterruptionQueue } from '../../providers/aws/ports/sdk/index.js';
import type { Options } from '../../settings/options.js';
import { UsageError } from '../usage-error.js';

/** What the operator needs from a provider: the CloudProvider, its own controllers and informers, and its CRDs. */
export type ProviderParts = Pick<
  OperatorOptions,
  'cloudProvider' | 'providerControllers' | 'providerInformers' | 'providerStatusSources'
> & {
  /** Stops what the provider runs besides the operator (the fake cloud's kubelets). */
  stop?: () => void;
  /** API group versions and resources (CRDs) the provider needs served before the replica is Ready. */
  requiredApis?: RequiredApi[];
};

/** Everything a provider may read to build itself. */
export interface ProviderContext {
  client: KubeClient;
  clock: Clock;
  options: Options;
  kubeConfig: KubeConfig;
  log: Logger;
  /** Where the provider's controllers count (the interruption metrics). */
  metrics: Metrics;
  /** Reads a file the kubeconfig names (the mounted cluster CA in a pod). */
  readFile: (path: string) => Promise<Buffer>;
}

/** A provider's builder. */
type ProviderFactory = (ctx: ProviderContext) => Promise<ProviderParts>;

/** The cluster's `major.minor` from the API server's /version. */
async function kubernetesVersion(client: KubeClient): Promise<string> {
  const v = await client.call<{ major?: string; minor?: string }>('get version', { method: 'GET', path: '/version' });
  const minor = (v.minor ?? '').replace(/\D.*$/, '');
  if (!v.major || !minor) throw new Error(`the API server's /version has no usable major/minor (${JSON.stringify(v)})`);
  return `${v.major}.${minor}`;
}

async function awsProvider(ctx: ProviderContext): Promise<ProviderParts> {
  const { options } = ctx;
  // Karpenter finds the endpoint with eks:DescribeCluster when it is unset; Tenon asks for it instead.
  if (!options.clusterName)
    throw new UsageError(
      'CLUSTER_NAME: required with --cloud-provider aws (the name nodes join, used in tags and userData)',
    );
  if (!options.clusterEndpoint)
    throw new UsageError(
      'CLUSTER_ENDPOINT: required with --cloud-provider aws (the API server URL nodes bootstrap against)',
    );
  // In a pod the CA is a mounted file (caFile), not caData; nodes need it in their userData either way.
  const caData = await clusterCaData(ctx.kubeConfig, ctx.readFile);
  const wiring = wireAwsProvider({
    client: ctx.client,
    clock: ctx.clock,
    port: await createSdkAwsPort(),
    cluster: { name: options.clusterName, endpoint: options.clusterEndpoint, ...(caData ? { caBundle: caData } : {}) },
    kubernetesVersion: await kubernetesVersion(ctx.client),
    vmMemoryOverheadPercent: options.vmMemoryOverheadPercent,
    isolatedVpc: options.isolatedVPC,
    reservedCapacity: options.featureGates.ReservedCapacity,
    // As Karpenter: interruption handling is on when a queue is named.
    ...(options.interruptionQueue
      ? {
          interruption: {
            queue: createSdkInterruptionQueue(options.interruptionQueue),
            metrics: ctx.metrics,
            log: ctx.log,
          },
        }
      : {}),
  });
  const requiredApis = [{ groupVersion: 'karpenter.k8s.aws/v1', resources: ['ec2nodeclasses'] }];
  return {
    cloudProvider: wiring.cloudProvider,
    providerControllers: wiring.controllers,
    providerInformers: wiring.informers,
    providerStatusSources: wiring.statusSources,
    requiredApis,
  };
}

async function fakeProvider(ctx: ProviderContext): Promise<ProviderParts> {
  // Loaded on demand: the simulated kubelets are playground machinery a production controller never needs.
  const { startFakeCloud } = await import('../../sim/fakecloud/fake-cloud.js');
  const cloud = await startFakeCloud({
    client: ctx.client,
    clock: ctx.clock,
    instanceIdPrefix: ctx.clock.now().toString(36),
    kubelet: { nodeLease: ctx.options.fakeCloudNodeLeases },
    onError: (agent, e) =>
      ctx.log.warn({ agent, error: e instanceof Error ? e.message : String(e) }, 'fake cloud: recovered from an error'),
  });
  return { cloudProvider: cloud.cloudProvider, stop: cloud.stop };
}

/** Providers by the name `--cloud-provider` takes. */
export const providers: Record<string, ProviderFactory> = {
  fake: fakeProvider,
  aws: awsProvider,
};
