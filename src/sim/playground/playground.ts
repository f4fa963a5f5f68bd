/**
 * The playground: the embedded API server, a simulated EC2 account behind the real AWS provider, the simulated
 * world (kubelets, CCM, kube-scheduler, workloads, volumes) and the very same controllers, on one SimClock.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { FaultExemptHeader, readStateHeader, startApiServer, type ApiServer } from '../../apiserver/index.js';
import {
  Discovery,
  KubeClient,
  Resources,
  SharedInformers,
  transportFromKubeConfig,
  type KubeObject,
  type Node,
  type Transport,
} from '../../kube/index.js';
import type { NodeClaim } from '../../api/index.js';
import { Metrics } from '../../observability/metrics.js';
import type { Logger } from '../../observability/logger.js';
import { startOperator, type RunningOperator } from '../../operator/operator.js';
import { wireAwsProvider, type AwsCloudProvider } from '../../providers/aws/index.js';
import { defaultOptions, type Options } from '../../settings/options.js';
import { RequestsInFlight, SimClock, trackTransport } from '../clock/index.js';
import { sleep } from '../../clock/index.js';
import type { KubeletTimings } from '../kubelet/timings.js';
import { SimEc2 } from '../ec2/index.js';
import { SimEc2Machines } from '../machines/sim-ec2-machines.js';
import { SimEventBridge } from '../sqs/event-bridge.js';
import { SimQueue } from '../sqs/sim-queue.js';
import { applyObjects } from '../scenario/apply.js';
import { World } from '../world/world.js';
import { defaultObjects } from './defaults.js';
import { inProcessTransport } from './in-process-transport.js';
import { objectSharing } from './object-sharing.js';
import { ControllerLog } from './controller-log.js';
import { ControllerProcess, oneAtATime, type ControllerCall, type KillPoint } from './controller-process.js';
import type { OperatorLife } from './controller-process.js';
import { controllerPodLogs, ensureControllerPod } from './controller-pod.js';
import { operatorLog } from './log-sink.js';
import { amiKubernetesVersions, apiServerVersion } from '../machines/kubernetes-version.js';
import { playgroundCluster, playgroundKubernetesVersion } from './cluster-identity.js';
import { agentsTheClusterRuns, clusterEndpoint, type ClusterAttachment, type Endpoint } from './attached-cluster.js';

export { playgroundCluster, playgroundKubernetesVersion } from './cluster-identity.js';
export { agentsTheClusterRuns, type ClusterAttachment } from './attached-cluster.js';

/** Simulated start of a playground without a start time: a fixed instant, so a scenario replays alike. */
const fixedStart = Date.UTC(2026, 0, 1);

/** How to build a playground. */
export interface PlaygroundOptions {
  seed?: number;
  /** The cluster name (default `playground`): the discovery tags, the node role and the default EC2NodeClass use it. */
  clusterName?: string;
  /** Kubernetes minor version (`1.33`): what the API server reports, the AMIs aliases resolve to, the kubelets run. */
  kubernetesVersion?: string;
  /** Simulated start, ms since the epoch (default a fixed instant; `tenon serve` passes the host's time). */
  startTime?: number;
  /** Zones of the simulated region (3 to 6). */
  zones?: number;
  /** Install the default EC2NodeClass and NodePool (default true). */
  defaults?: boolean;
  /** API server port (default: a free one). */
  port?: number;
  /** Where the controllers' JSON logs go (default: nowhere). */
  log?: Logger;
  /** Or: a stream for the controllers' JSON log lines, timestamped in simulated time (`log` wins when both are given). */
  logDestination?: NodeJS.WritableStream;
  /**
   * Also keep the controllers' log lines for `kubectl logs -n kube-system tenon`: a `tenon` pod in kube-system
   * whose log the embedded API server serves (not with `log` or `cluster`).
   */
  controllerPod?: boolean;
  /** Operator settings over the defaults. */
  options?: Partial<Options>;
  /**
   * The API server's saved state (see startApiServer's stateFile): the API objects and the simulated time are
   * kept across restarts; the simulated EC2 instances are not (see `tenon serve --help`).
   */
  stateFile?: string;
  /**
   * How the playground's own clients reach the API server: in process (default; no TLS or HTTP framing, which
   * cost them most of their CPU) or over HTTPS as kubectl does.
   */
  apiTransport?: 'in-process' | 'https';
  /** Simulated kubelet timings over the defaults (boot, Ready, device plugins …). */
  kubelet?: Partial<KubeletTimings>;
  /**
   * Attach to an existing cluster instead of starting the embedded API server: the simulated EC2, kubelets,
   * CCM and volumes and Tenon's controllers run against it, while its own kube-scheduler and
   * kube-controller-manager (workloads, node lifecycle) replace the simulated ones.
   */
  cluster?: ClusterAttachment;
}

/** A running playground. */
export interface Playground {
  /** The cluster name (discovery tags, node role). */
  clusterName: string;
  /** The Kubernetes minor version (`1.33`). */
  kubernetesVersion: string;
  /** The embedded API server (undefined when attached to a cluster). */
  server?: ApiServer;
  /** The API server's URL and a kubeconfig for it (the embedded one's, or the cluster's). */
  url: string;
  kubeConfigYaml: string;
  /** True when the embedded server loaded saved state. */
  restored: boolean;
  clock: SimClock;
  client: KubeClient;
  /** The requests `client` has in flight (what simulated time waits on when it stalls). */
  requests: RequestsInFlight;
  discovery: Discovery;
  /** A client no injected fault touches, and its discovery: the scenario runner's (it observes; agents suffer). */
  observer: { client: KubeClient; discovery: Discovery };
  ec2: SimEc2;
  /** The interruption queue (settings.interruptionQueue) and the rules that fill it from the simulated EC2. */
  interruption: { queue: SimQueue; eventBridge: SimEventBridge };
  provider: AwsCloudProvider;
  world: World;
  operator: RunningOperator;
  /**
   * Stops the controllers and starts new ones with fresh caches (a fault: the controller process was killed).
   * Resolves once the new ones run; simulated time must move meanwhile (they list through the same, possibly
   * faulty, API, and the old ones finish their in-flight work).
   */
  restartControllers(): Promise<void>;
  /**
   * Kills the controller process as SIGKILL does (at once, or on the call `at` names: mid-launch, mid-drain …),
   * then starts a new one `restartAfterMs` later (default 10 s) with nothing of the old one's memory. Resolves
   * once the new one runs, with the call the kill landed on; simulated time must move meanwhile. With `at`, the
   * kill lands within `withinMs` (default 3 min) whether the call comes or not (then it resolves undefined).
   */
  killControllers(o?: {
    at?: KillPoint;
    withinMs?: number;
    restartAfterMs?: number;
  }): Promise<ControllerCall | undefined>;
  /** The informers the world and the operator share (their caches, for observers that must not list everything). */
  informers: SharedInformers;
  /** The `tenon` pod's log (with the controllerPod option). */
  controllerLog?: ControllerLog;
  /** Errors agents of the world recovered from. */
  worldErrors: Array<{ agent: string; error: unknown }>;
  stop(): Promise<void>;
}

async function playgroundTransport(server: ApiServer, kind: PlaygroundOptions['apiTransport']): Promise<Transport> {
  if (kind !== 'https') return inProcessTransport(server);
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  return transportFromKubeConfig(kc);
}

async function embeddedEndpoint(clock: SimClock, o: PlaygroundOptions, log?: ControllerLog): Promise<Endpoint> {
  const server = await startApiServer({
    clock,
    podLogs: log && controllerPodLogs(log),
    port: o.port,
    stateFile: o.stateFile,
    kubernetesVersion: apiServerVersion(o.kubernetesVersion ?? playgroundKubernetesVersion),
  });
  const transport = await playgroundTransport(server, o.apiTransport);
  return {
    server,
    url: server.url,
    caPem: server.caPem,
    kubeConfigYaml: server.kubeConfigYaml,
    transport,
    restored: server.restored,
  };
}

/** The run's seed and simulated clock: fresh, resumed from saved state, or at the attached cluster's now. */
function seedAndClock(o: PlaygroundOptions): { seed: number; clock: SimClock } {
  const saved = o.stateFile && !o.cluster ? readStateHeader(o.stateFile) : undefined;
  const seed = (o.seed ?? 1) + Number(saved?.resourceVersion ?? 0);
  return {
    seed,
    clock: new SimClock({ start: o.cluster?.startMs ?? Math.max(o.startTime ?? fixedStart, saved?.savedAtMs ?? 0) }),
  };
}

/** The operator's settings: the defaults, the playground's cluster, then the caller's. */
function playgroundOptions(o: PlaygroundOptions, cluster: string, endpoint: string): Options {
  const options: Options = { ...defaultOptions, clusterName: cluster, clusterEndpoint: endpoint, ...o.options };
  // Karpenter's getting-started names the interruption queue after the cluster; the playground always has one.
  options.interruptionQueue ||= cluster;
  return options;
}

/** Starts everything and, unless told otherwise, installs the default EC2NodeClass and NodePool. */
export async function startPlayground(o: PlaygroundOptions = {}): Promise<Playground> {
  // A restored cluster resumes its simulated time, so ages and timestamps stay in order, and draws from a
  // different random sequence: the same seed would hand out the pod names and instance IDs of the saved
  // objects again (AlreadyExists from the ReplicaSet controller, a new instance under an old NodeClaim's ID).
  const { seed, clock } = seedAndClock(o);
  const controllerLog =
    o.controllerPod && !o.cluster && !o.log ? new ControllerLog({ now: () => clock.now() }) : undefined;
  const endpoint = o.cluster
    ? await clusterEndpoint(o.cluster, clock)
    : await embeddedEndpoint(clock, o, controllerLog);
  const { server } = endpoint;
  const requests = new RequestsInFlight();
  const tracked = trackTransport(endpoint.transport, clock, requests);
  const client = new KubeClient(tracked);
  const cluster = o.clusterName ?? playgroundCluster;
  const minor = o.kubernetesVersion ?? playgroundKubernetesVersion;
  const ec2 = new SimEc2({
    clock,
    seed,
    zones: o.zones ?? 3,
    clusterName: cluster,
    kubernetesVersions: amiKubernetesVersions(minor),
  });
  const options = playgroundOptions(o, cluster, endpoint.url);
  const queue = new SimQueue(clock, options.interruptionQueue);
  const eventBridge = new SimEventBridge({ clock, ec2, queue });
  const worldErrors: Playground['worldErrors'] = [];
  // The world and the operator watch the same server through the same client: one cache of each kind serves both.
  // Interned strings and shared parts keep a large simulated cluster's caches small (the transform is opt-in).
  const shared = new SharedInformers({
    client,
    clock,
    onError: (error) => worldErrors.push({ agent: 'informer', error }),
    transform: objectSharing(),
  });
  const log = operatorLog({ log: o.log, destination: o.logDestination, clock, controllerLog });
  const metrics = new Metrics();
  // Each life of the controller process reaches the world through its own gates (see controller-process.ts).
  const launchOperator = async (life: ControllerProcess): Promise<OperatorLife> => {
    const opClient = new KubeClient(life.transport(tracked));
    const opClock = life.clock(clock);
    const w = wireAwsProvider({
      client: opClient,
      clock: opClock,
      port: life.port(ec2, 'aws'),
      cluster: {
        name: cluster,
        endpoint: endpoint.url,
        caBundle: Buffer.from(endpoint.caPem).toString('base64'),
        serviceCidr: '10.100.0.0/16',
      },
      kubernetesVersion: minor,
      interruption: {
        queue: life.port(queue, 'sqs'),
        metrics,
        log,
        caches: {
          nodeClaims: () => shared.get<NodeClaim & KubeObject>(Resources.nodeClaims).cache.list(),
          nodes: () => shared.get<Node>(Resources.nodes).cache.list(),
        },
      },
    });
    const operator = await startOperator({
      client: opClient,
      cloudProvider: w.cloudProvider,
      clock: opClock,
      options,
      log,
      metrics,
      providerControllers: w.controllers,
      providerInformers: w.informers,
      providerStatusSources: w.statusSources,
      sharedInformers: shared,
    });
    return { life, operator, provider: w.cloudProvider };
  };
  let current = await clock.busy(launchOperator(new ControllerProcess()));
  let stopped = false;
  // Volumes of Immediate StorageClasses are created in any of the region's zones, nodes or not (S4).
  const world = new World({
    client,
    clock,
    seed,
    machines: new SimEc2Machines(ec2),
    volumes: { zones: ec2.account.zones },
    kubelet: o.kubelet,
    onError: (agent, error) => worldErrors.push({ agent, error }),
    sharedInformers: shared,
    disable: o.cluster ? agentsTheClusterRuns : [],
  });
  await clock.busy(world.start());
  const discovery = new Discovery(client);
  // Scenario checks read past the embedded server's injected faults; an attached cluster has none.
  const observerClient = server
    ? new KubeClient(trackTransport(inProcessTransport(server, { [FaultExemptHeader]: 'true' }), clock))
    : client;
  const observer = { client: observerClient, discovery: new Discovery(observerClient) };
  if ((o.defaults ?? true) && !endpoint.restored)
    await clock.busy(applyObjects(client, discovery, defaultObjects(cluster)));
  if (controllerLog) await clock.busy(ensureControllerPod(client, new Date(clock.now()).toISOString()));
  const serially = oneAtATime(); // two restarts of one process at once would start two, both running
  const relaunch = async (): Promise<void> => {
    const started = await launchOperator(new ControllerProcess());
    if (stopped) {
      await started.operator.stop();
      return;
    }
    current = started;
    pg.operator = started.operator;
    pg.provider = started.provider;
  };
  const pg: Playground = {
    clusterName: cluster,
    kubernetesVersion: minor,
    server,
    url: endpoint.url,
    kubeConfigYaml: endpoint.kubeConfigYaml,
    restored: endpoint.restored,
    clock,
    client,
    requests,
    discovery,
    observer,
    ec2,
    interruption: { queue, eventBridge },
    provider: current.provider,
    world,
    operator: current.operator,
    informers: shared,
    controllerLog,
    worldErrors,
    restartControllers: () =>
      serially(async () => {
        // Everything the controllers and the provider held in memory is lost, as when the process is killed.
        const stopping = current.operator.stop();
        await relaunch();
        await stopping;
      }),
    killControllers: (o = {}) =>
      serially(async () => {
        const { life, operator } = current;
        let landedOn: ControllerCall | undefined;
        if (o.at) {
          // A call that never comes (no drain in this run) does not spare the process: it dies at the deadline.
          const deadline = clock.setTimer(o.withinMs ?? 3 * 60_000, () => life.kill());
          landedOn = await life.killAt(o.at);
          deadline();
        } else life.kill();
        // Its queues close and its watches end; its workers stay where the kill found them, so no waiting for them.
        void operator.stop();
        await sleep(clock, o.restartAfterMs ?? 10_000);
        await relaunch();
        return landedOn;
      }),
    stop: async () => {
      stopped = true;
      eventBridge.stop();
      world.stop();
      if (current.life.killed) void current.operator.stop();
      else await current.operator.stop();
      shared.stop();
      await server?.close();
    },
  };
  return pg;
}
