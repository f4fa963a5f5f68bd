/**
 * The cloud providers `tenon controller` can run with: `fake` (instances that exist only in memory, for trying
 * the controllers against a real cluster) and `aws` (EC2 through the AWS SDK, as Karpenter's AWS provider).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { CloudProvider } from '../../cloudprovider/index.js';
import { FakeCloudProvider } from '../../cloudprovider/fake/index.js';
import type { Clock } from '../../clock/index.js';
import type { KubeClient } from '../../kube/index.js';
import type { OperatorOptions } from '../../operator/operator.js';
import { wireAwsProvider } from '../../providers/aws/index.js';
import { createSdkAwsPort } from '../../providers/aws/ports/sdk/index.js';
import type { Options } from '../../settings/options.js';

/** What the operator needs from a provider: the CloudProvider and its own controllers and informers. */
export type ProviderParts = Pick<OperatorOptions, 'cloudProvider' | 'providerControllers' | 'providerInformers'>;

/** Everything a provider may read to build itself. */
export interface ProviderContext {
  client: KubeClient;
  clock: Clock;
  options: Options;
  kubeConfig: KubeConfig;
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
  if (!options.clusterName) throw new Error('CLUSTER_NAME: required with --cloud-provider aws (the name nodes join, used in tags and userData)');
  if (!options.clusterEndpoint) throw new Error('CLUSTER_ENDPOINT: required with --cloud-provider aws (the API server URL nodes bootstrap against)');
  const caData = ctx.kubeConfig.getCurrentCluster()?.caData;
  const wiring = wireAwsProvider({
    client: ctx.client,
    clock: ctx.clock,
    port: await createSdkAwsPort(),
    cluster: { name: options.clusterName, endpoint: options.clusterEndpoint, ...(caData ? { caBundle: caData } : {}) },
    kubernetesVersion: await kubernetesVersion(ctx.client),
  });
  return { cloudProvider: wiring.cloudProvider, providerControllers: wiring.controllers, providerInformers: wiring.informers };
}

/** Providers by the name `--cloud-provider` takes. */
export const providers: Record<string, ProviderFactory> = {
  fake: () => Promise.resolve({ cloudProvider: new FakeCloudProvider() satisfies CloudProvider }),
  aws: awsProvider,
};
