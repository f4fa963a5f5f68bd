/** Construction options of the AWS cloud provider. */
import type { EC2NodeClass } from '../../api/index.js';
import type { Clock } from '../../clock/index.js';
import type { ClusterInfo, UserDataInput } from './bootstrap/index.js';
import type { AwsPort } from './ports/index.js';

/** The cluster the provider launches nodes for: name, API endpoint and CA bundle (base64). */
export interface AwsClusterOptions {
  name: string;
  endpoint: string;
  caBundle?: string;
  serviceCidr?: string;
  dnsIp?: string;
  ipFamily?: 'ipv4' | 'ipv6';
}

/** Everything `new AwsCloudProvider(...)` takes. */
export interface AwsCloudProviderOptions {
  /** AWS (the SDK adapter) or the simulated EC2. */
  port: AwsPort;
  clock: Clock;
  cluster: AwsClusterOptions;
  /** The cluster's Kubernetes minor version (`1.32`). */
  kubernetesVersion: string;
  /** The EC2NodeClass of that name with its resolved status (from an informer), or undefined. */
  getNodeClass: (name: string) => EC2NodeClass | undefined;
  /** Produces the userData of a launch; normally the bootstrap library's `generateUserData`. */
  userDataGenerator: (input: UserDataInput) => string;
  /** Karpenter's `vmMemoryOverheadPercent` (default 0.075). */
  vmMemoryOverheadPercent?: number;
  /** Karpenter's `reservedENIs` (default 0). */
  reservedEnis?: number;
  /** Karpenter's `isolatedVPC`: no Pricing API calls; on-demand prices from the list shipped with the release. */
  isolatedVpc?: boolean;
  /** CreateFleet batching window in clock ms; 0 (default) merges the launches of one event-loop turn. */
  fleetBatchWindowMs?: number;
  /** The ReservedCapacity feature gate (default on, as in Karpenter v1.15): capacity reservations as offerings. */
  reservedCapacity?: boolean;
}

/** The bootstrap library's cluster record from the provider's options. */
export function clusterInfo(c: AwsClusterOptions): ClusterInfo {
  return {
    name: c.name,
    endpoint: c.endpoint,
    caBundle: c.caBundle ?? '',
    ...(c.serviceCidr ? { serviceCidr: c.serviceCidr } : {}),
    ...(c.dnsIp ? { dnsIp: c.dnsIp } : {}),
    ...(c.ipFamily ? { ipFamily: c.ipFamily } : {}),
  };
}
