/**
 * Wires the AWS provider for the operator: the AwsCloudProvider reading EC2NodeClasses from an informer, and
 * the EC2NodeClass controller that resolves them. The same wiring runs against AWS (the SDK port) and the
 * playground (the simulated EC2 port).
 */
import type { NodeClaim } from '../../api/index.js';
import type { Clock } from '../../clock/index.js';
import {
  EventRecorder,
  Informer,
  Resources,
  type KubeClient,
  type KubeObject,
  type Reconciler,
  type WorkQueue,
} from '../../kube/index.js';
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import type { StatusSource } from '../../observability/status-condition-metrics.js';
import { generateUserData } from './bootstrap/index.js';
import { AwsCloudProvider } from './aws-cloud-provider.js';
import { CapacityReservationController } from './controllers/capacityreservation/controller.js';
import { InterruptionController, type InterruptionCaches } from './controllers/interruption/controller.js';
import { NodeClassController, type StoredNodeClass } from './controllers/nodeclass/controller.js';
import { NodeClassResolver } from './nodeclass/resolver.js';
import type { AwsClusterOptions } from './options.js';
import type { AwsPort, InterruptionQueuePort } from './ports/index.js';

/** What the operator runs for the AWS provider. */
export interface AwsProviderWiring {
  cloudProvider: AwsCloudProvider;
  controllers: Array<Reconciler & { queue: WorkQueue; stop?: () => void }>;
  informers: Array<Pick<Informer<KubeObject>, 'start' | 'stop' | 'waitForSync'>>;
  /** EC2NodeClass, whose status conditions are reported as the provider's status controller does. */
  statusSources: StatusSource[];
}

/** Options of the wiring. */
export interface AwsWiringOptions {
  client: KubeClient;
  clock: Clock;
  port: AwsPort;
  cluster: AwsClusterOptions;
  /** The cluster's Kubernetes minor version, e.g. `1.32`. */
  kubernetesVersion: string;
  /** Karpenter's `vmMemoryOverheadPercent` (VM_MEMORY_OVERHEAD_PERCENT). */
  vmMemoryOverheadPercent?: number;
  /** Karpenter's `isolatedVPC`: price on-demand from the shipped list, never calling the Pricing API. */
  isolatedVpc?: boolean;
  /** The ReservedCapacity feature gate (default on). */
  reservedCapacity?: boolean;
  /** The interruption queue (settings.interruptionQueue) and where its controller reports; none: no interruption handling. */
  interruption?: { queue: InterruptionQueuePort; metrics: Metrics; log: Logger; caches?: InterruptionCaches };
}

/** Builds the provider, its EC2NodeClass informer and controller. */
export function wireAwsProvider(o: AwsWiringOptions): AwsProviderWiring {
  const nodeClasses = new Informer<StoredNodeClass>({
    client: o.client,
    clock: o.clock,
    resource: Resources.ec2NodeClasses,
    onError: () => undefined,
  });
  const cloudProvider = new AwsCloudProvider({
    port: o.port,
    clock: o.clock,
    cluster: o.cluster,
    kubernetesVersion: o.kubernetesVersion,
    getNodeClass: (name) => nodeClasses.cache.get(name),
    userDataGenerator: generateUserData,
    vmMemoryOverheadPercent: o.vmMemoryOverheadPercent,
    isolatedVpc: o.isolatedVpc,
    ...(o.reservedCapacity === undefined ? {} : { reservedCapacity: o.reservedCapacity }),
  });
  const resolver = new NodeClassResolver({
    port: o.port,
    clock: o.clock,
    clusterName: o.cluster.name,
    kubernetesVersion: o.kubernetesVersion,
    placementGroups: cloudProvider.placementGroups,
    capacityReservations: cloudProvider.capacityReservations,
    ...(o.reservedCapacity === undefined ? {} : { reservedCapacity: o.reservedCapacity }),
  });
  const recorder = new EventRecorder({ client: o.client, clock: o.clock, component: 'karpenter' });
  const inUse = async (name: string): Promise<boolean> => {
    const claims = await o.client.list<NodeClaim & KubeObject>(Resources.nodeClaims);
    return claims.items.some((nc) => nc.spec.nodeClassRef.name === name);
  };
  const controller = new NodeClassController({
    client: o.client,
    clock: o.clock,
    port: o.port,
    resolver,
    provider: cloudProvider,
    recorder,
    clusterName: o.cluster.name,
    nodeClasses,
    inUse,
  });
  const interruption = o.interruption
    ? [
        new InterruptionController({
          ...o.interruption,
          client: o.client,
          clock: o.clock,
          recorder,
          unavailableOfferings: cloudProvider.unavailableOfferings,
        }),
      ]
    : [];
  const reservations =
    o.reservedCapacity === false
      ? []
      : [
          new CapacityReservationController({
            client: o.client,
            clock: o.clock,
            recorder,
            get: (providerID) => cloudProvider.get(providerID),
            reservationState: (nodeClass, id) =>
              nodeClasses.cache.get(nodeClass)?.status?.capacityReservations?.find((r) => r.id === id)?.state,
          }),
        ];
  return {
    cloudProvider,
    controllers: [controller, ...interruption, ...reservations],
    informers: [nodeClasses],
    statusSources: [
      {
        kind: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', labels: [], deprecated: true },
        objects: nodeClasses,
      },
    ],
  };
}
