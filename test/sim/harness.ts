/** End-to-end harness: an embedded API server on a SimClock, a tracked client, machines and a World. */
import { KubeConfig } from '@kubernetes/client-node';
import { startApiServer, type ApiServer } from '../../src/apiserver/index.js';
import { KubeClient, transportFromKubeConfig, type Node, type Pod } from '../../src/kube/index.js';
import { SimClock, trackTransport } from '../../src/sim/clock/index.js';
import type { Machine } from '../../src/sim/machines/machine.js';
import { StaticMachines } from '../../src/sim/machines/static-machines.js';
import { SimResources } from '../../src/sim/world/resources.js';
import { World, type WorldOptions } from '../../src/sim/world/world.js';

/** A running world and what a test needs to poke it. */
export interface SimHarness {
  server: ApiServer;
  clock: SimClock;
  client: KubeClient;
  machines: StaticMachines;
  world: World;
  errors: Array<{ agent: string; error: unknown }>;
  close(): Promise<void>;
}

/** Starts server, clock and world. */
export async function startWorld(
  opts: Partial<Omit<WorldOptions, 'client' | 'clock' | 'machines'>> & { machines?: Machine[] } = {},
): Promise<SimHarness> {
  const clock = new SimClock({ start: Date.UTC(2026, 0, 1) });
  const server = await startApiServer({ clock, crds: [] });
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  const client = new KubeClient(trackTransport(await transportFromKubeConfig(kc), clock));
  const machines = new StaticMachines(opts.machines ?? []);
  const errors: SimHarness['errors'] = [];
  const world = new World({
    seed: 7,
    ...opts,
    client,
    clock,
    machines,
    onError: (agent, error) => errors.push({ agent, error }),
  });
  await clock.busy(world.start());
  return {
    server,
    clock,
    client,
    machines,
    world,
    errors,
    close: async () => {
      world.stop();
      await server.close();
    },
  };
}

/** AL2023 userData that joins the cluster with no taints or labels of its own (a hand-made node). */
export const plainUserData = `apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: playground
    apiServerEndpoint: https://127.0.0.1
    certificateAuthority: Cg==
    cidr: 10.100.0.0/16
`;

/** A machine (m5.xlarge in us-west-2a unless overridden) booting `plainUserData` unless overridden. */
export function machine(name: string, extra: Partial<Machine> = {}): Machine {
  return {
    providerID: `aws:///${extra.zone ?? 'us-west-2a'}/i-${name}`,
    instanceId: `i-${name}`,
    nodeName: `ip-${name}.us-west-2.compute.internal`,
    instanceType: 'm5.xlarge',
    zone: 'us-west-2a',
    region: 'us-west-2',
    arch: 'amd64',
    os: 'linux',
    capacity: { cpu: '4', memory: '16Gi', pods: '58', 'ephemeral-storage': '20Gi' },
    userData: plainUserData,
    amiFamily: 'AL2023',
    launchTime: 0,
    state: 'running',
    vcpus: 4,
    eniMaxPods: 58,
    ...extra,
  };
}

/** Lists pods in a namespace. */
export async function pods(h: SimHarness, namespace = 'default'): Promise<Pod[]> {
  return (await h.client.list<Pod>(SimResources.pods, { namespace })).items;
}

/** Reads a node. */
export function node(h: SimHarness, name: string): Promise<Node> {
  return h.client.get<Node>(SimResources.nodes, { name });
}

/** Runs simulated time until `check` passes (re-read through the API each time it is idle), or fails after `limitMs`. */
export async function until(h: SimHarness, check: () => Promise<boolean>, limitMs: number): Promise<void> {
  const end = h.clock.now() + limitMs;
  while (h.clock.now() <= end) {
    if (await h.clock.busy(check())) return;
    const next = h.clock.nextDue();
    if (next === undefined || next > end) break;
    await h.clock.advance(Math.max(1, next - h.clock.now()));
  }
  if (!(await h.clock.busy(check()))) throw new Error(`condition not met within ${limitMs} ms of simulated time`);
}
