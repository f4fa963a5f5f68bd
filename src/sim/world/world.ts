/**
 * The simulated world around the controllers: kubelets, the node lifecycle controller, the CCM, the
 * kube-scheduler, the workload controllers and the volume agents, all talking to the API server through one
 * KubeClient, driven by one clock and one seed. The playground builds one World and starts it.
 */
import type { Clock } from '../../clock/index.js';
import type { KubeClient, SharedInformers } from '../../kube/index.js';
import { CloudControllerManager, type CcmOptions } from '../ccm/controller.js';
import { KubeletFleet } from '../kubelet/fleet.js';
import type { KubeletTimings } from '../kubelet/timings.js';
import type { MachineSource } from '../machines/machine.js';
import { NodeLifecycleController, type NodeLifecycleOptions } from '../nodelifecycle/controller.js';
import { KubeScheduler, type SchedulerOptions } from '../scheduler/scheduler.js';
import { AttachDetachController } from '../volumes/attach-detach.js';
import { PersistentVolumeController, type PvControllerOptions } from '../volumes/pv-controller.js';
import { volumesReady } from '../volumes/readiness.js';
import { DaemonSetController } from '../workloads/daemonset.js';
import { DeploymentController } from '../workloads/deployment.js';
import { JobController } from '../workloads/job.js';
import { ReplicaSetController } from '../workloads/replicaset.js';
import { StatefulSetController } from '../workloads/statefulset.js';
import type { Agent, AgentContext } from './agent.js';
import { InformerSet } from './informers.js';
import { Rng } from './random.js';

/** The agents a World can run; each can be turned off. */
export const agentNames = [
  'kubelets',
  'nodeLifecycle',
  'ccm',
  'scheduler',
  'deployments',
  'replicaSets',
  'daemonSets',
  'statefulSets',
  'jobs',
  'volumes',
  'attachDetach',
] as const;

/** One of the agents a World can run. */
export type AgentName = (typeof agentNames)[number];

/** The `disable` list of a World that runs only `run`. */
export function allAgentsBut(run: readonly AgentName[]): AgentName[] {
  return agentNames.filter((a) => !run.includes(a));
}

/** Construction options of a World. */
export interface WorldOptions {
  /** The client every agent uses (wrap its transport with trackTransport when the clock is a SimClock). */
  client: KubeClient;
  clock: Clock;
  /** The seed of every random draw (boot delays, CCM delays, pod names, volume zones). */
  seed?: number;
  /** The cloud's machines (SimEc2Machines, FakeProviderMachines or StaticMachines). */
  machines: MachineSource;
  /** Agents to leave out (all run by default). */
  disable?: readonly AgentName[];
  kubelet?: Partial<KubeletTimings>;
  scheduler?: SchedulerOptions;
  nodeLifecycle?: NodeLifecycleOptions;
  ccm?: Omit<CcmOptions, 'machines'>;
  volumes?: PvControllerOptions;
  /** Failures agents recovered from (by agent name). */
  onError?: (agent: string, e: unknown) => void;
  /** Informers shared with other components of the process (the playground's operator); their owner stops them. */
  sharedInformers?: SharedInformers;
}

/** The running world. */
export class World {
  readonly informers: InformerSet;
  readonly kubelets: KubeletFleet;
  readonly scheduler: KubeScheduler;
  readonly nodeLifecycle: NodeLifecycleController;
  readonly ccm: CloudControllerManager;
  readonly volumes: PersistentVolumeController;
  private readonly agents: Agent[] = [];

  /** Builds every agent; nothing runs until start(). */
  constructor(readonly opts: WorldOptions) {
    const root = new Rng(opts.seed ?? 1);
    this.informers = new InformerSet({
      client: opts.client,
      clock: opts.clock,
      onError: (e) => opts.onError?.('informer', e),
      shared: opts.sharedInformers,
    });
    const ctx = (name: string): AgentContext => ({
      client: opts.client,
      clock: opts.clock,
      informers: this.informers,
      rng: root.fork(name),
      onError: opts.onError,
    });
    this.kubelets = new KubeletFleet(ctx('kubelets'), {
      machines: opts.machines,
      timings: opts.kubelet,
      volumesReady: (pod, node) => volumesReady(this.informers, pod, node),
    });
    this.scheduler = new KubeScheduler(ctx('scheduler'), opts.scheduler);
    this.nodeLifecycle = new NodeLifecycleController(ctx('nodeLifecycle'), opts.nodeLifecycle);
    this.ccm = new CloudControllerManager(ctx('ccm'), { ...opts.ccm, machines: opts.machines });
    this.volumes = new PersistentVolumeController(ctx('volumes'), opts.volumes);
    const all: Record<AgentName, Agent> = {
      kubelets: this.kubelets,
      nodeLifecycle: this.nodeLifecycle,
      ccm: this.ccm,
      scheduler: this.scheduler,
      deployments: new DeploymentController(ctx('deployments')),
      replicaSets: new ReplicaSetController(ctx('replicaSets')),
      daemonSets: new DaemonSetController(ctx('daemonSets')),
      statefulSets: new StatefulSetController(ctx('statefulSets')),
      jobs: new JobController(ctx('jobs')),
      volumes: this.volumes,
      attachDetach: new AttachDetachController(ctx('attachDetach')),
    };
    const disabled = new Set(opts.disable ?? []);
    for (const [name, agent] of Object.entries(all) as Array<[AgentName, Agent]>)
      if (!disabled.has(name)) this.agents.push(agent);
  }

  /** Starts every agent, then the shared informers; resolves once they have listed the cluster. */
  async start(): Promise<void> {
    for (const a of this.agents) a.start();
    await this.informers.start();
  }

  /** Stops every agent and informer. */
  stop(): void {
    for (const a of [...this.agents].reverse()) a.stop();
    this.informers.stop();
  }
}
