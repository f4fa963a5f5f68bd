/**
 * The fake cloud behind `tenon controller --cloud-provider fake`, in the spirit of Karpenter's kwok provider:
 * launches are instant and in memory (FakeCloudProvider over the catalog's real instance types), and each
 * instance gets a simulated kubelet that registers a Node with the launch's labels, taints, capacity and
 * providerID, turns it Ready, runs the pods bound to it and finishes the ones being deleted; the simulated CCM
 * initializes the Node. The cluster's own kube-scheduler and controllers do everything else.
 */
import type { Clock } from '../../clock/index.js';
import { FakeCloudProvider } from '../../cloudprovider/fake/index.js';
import type { KubeClient } from '../../kube/index.js';
import type { KubeletTimings } from '../kubelet/timings.js';
import { FakeProviderMachines } from '../machines/fake-provider-machines.js';
import { allAgentsBut, World, type AgentName } from '../world/world.js';
import { catalogInstanceTypes, fakeCloudZones } from './catalog-instance-types.js';

/** How to start the fake cloud. */
export interface FakeCloudOptions {
  client: KubeClient;
  clock: Clock;
  /** Instance ids are `i-<prefix>-NNNNNN`; give each process its own so Nodes of an earlier run are not reused. */
  instanceIdPrefix: string;
  /** Zones the catalog's types are offered in. */
  zones?: readonly string[];
  /** Kubelet timings over fast defaults (a node registers within seconds). */
  kubelet?: Partial<KubeletTimings>;
  /** Failures the kubelets and the CCM recovered from. */
  onError?: (agent: string, e: unknown) => void;
}

/** A running fake cloud. */
export interface FakeCloud {
  cloudProvider: FakeCloudProvider;
  stop(): void;
}

/** Only the agents that stand for the machines: a real cluster has its own scheduler and controllers. */
const cloudSideAgents: readonly AgentName[] = ['kubelets', 'ccm'];

/** Nodes register in a few seconds on the system clock (EKS takes about a minute; tests should not). */
const fastKubelet: Partial<KubeletTimings> = {
  boot: { min: 1_000, max: 3_000 },
  ready: { min: 500, max: 1_500 },
  podStart: { min: 200, max: 1_000 },
  podStop: { min: 100, max: 500 },
};

/** Starts the kubelets and CCM of the fake cloud against the cluster `client` reaches. */
export async function startFakeCloud(o: FakeCloudOptions): Promise<FakeCloud> {
  const zones = o.zones ?? fakeCloudZones;
  const cloudProvider = new FakeCloudProvider({
    instanceTypes: catalogInstanceTypes({ zones }),
    instanceIdPrefix: o.instanceIdPrefix,
    recordCalls: false,
  });
  const machines = new FakeProviderMachines({
    provider: cloudProvider,
    clock: o.clock,
    region: 'us-east-1',
    pollMs: 500,
  });
  const world = new World({
    client: o.client,
    clock: o.clock,
    machines,
    disable: allAgentsBut(cloudSideAgents),
    kubelet: { ...fastKubelet, ...o.kubelet },
    ccm: { initDelay: { min: 200, max: 1_000 } },
    onError: o.onError,
  });
  machines.start();
  await world.start();
  return {
    cloudProvider,
    stop: () => {
      world.stop();
      machines.stop();
    },
  };
}
