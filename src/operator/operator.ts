import { OverlaidCloudProvider, type CloudProvider } from '../cloudprovider/index.js';
import { overlayRules } from '../controllers/nodeoverlay/rules.js';
import type { Clock } from '../clock/index.js';
import { newControllers, type Controller, type ControllerContext } from '../controllers/index.js';
import { registerClusterGauges } from '../controllers/metrics/cluster-gauges.js';
import { PodStartupObserver } from '../controllers/metrics/pod-startup.js';
import {
  coreStatusKinds,
  reportStatusConditions,
  type StatusSource,
} from '../controllers/metrics/status-conditions.js';
import {
  EventRecorder,
  runReconciler,
  type Informer,
  type KubeClient,
  type KubeObject,
  type SharedInformers,
} from '../kube/index.js';
import type { Logger } from '../observability/logger.js';
import { instrumentCloudProvider } from '../observability/instrumented-cloud-provider.js';
import { Metrics } from '../observability/metrics.js';
import type { ReconcileContext } from '../observability/reconcile-context.js';
import type { Options } from '../settings/options.js';
import { ClusterState } from '../state/cluster-state.js';
import { createInformers, startInformers, stopInformers } from '../state/informers.js';
import { unservedKinds } from './optional-kinds.js';

/** An informer the operator starts, waits for, and stops. */
export type StartableInformer = Pick<Informer<KubeObject>, 'start' | 'stop' | 'waitForSync'>;

/** What the operator needs from its caller: cluster access, the cloud, time, settings and a logger. */
export interface OperatorOptions {
  client: KubeClient;
  cloudProvider: CloudProvider;
  clock: Clock;
  options: Options;
  log: Logger;
  metrics?: Metrics;
  /** The cloud provider's own controllers (e.g. the EC2NodeClass controller) and the informers they read. */
  providerControllers?: Controller[];
  providerInformers?: StartableInformer[];
  /** The provider's status-conditioned kinds (the AWS provider's EC2NodeClass) whose conditions are reported. */
  providerStatusSources?: StatusSource[];
  /** Informers shared with other components of the process (the playground's world); their owner stops them. */
  sharedInformers?: SharedInformers;
  /** Called once every informer has synced, before the controllers wait for leadership. */
  onSynced?: () => void;
  /** Gives each reconcile its own reconcileID in the log (the logger's mixin reads it). */
  reconcileContext?: ReconcileContext;
  /** Resolves true when this replica leads and may run the controllers (leader election); false to never run them. */
  waitToLead?: () => Promise<boolean>;
}

/** A running operator. */
export interface RunningOperator {
  context: ControllerContext;
  controllers: Controller[];
  /** True once informers synced and the controllers are running. */
  ready(): boolean;
  /** Stops the controllers and informers; resolves when every worker has returned. */
  stop(): Promise<void>;
}

/** Starts informers, waits for them to sync (no decision is taken on a partial view), then runs every controller. */
export async function startOperator(o: OperatorOptions): Promise<RunningOperator> {
  const informers = createInformers(o.client, o.clock, o.sharedInformers);
  const metrics = o.metrics ?? new Metrics();
  const recorder = new EventRecorder({
    client: o.client,
    clock: o.clock,
    component: 'karpenter',
    onError: (e) => o.log.warn({ err: e }, 'event not recorded'),
  });
  const unserved = await unservedKinds(o.client, o.log);
  const state = new ClusterState(informers, o.clock, unserved);
  registerClusterGauges(metrics, informers, state, o.clock);
  new PodStartupObserver(informers, metrics);
  // Every consumer of instance types sees the NodeOverlays in force (provisioning, consolidation, lower bound).
  // Timed and counted as Karpenter's metrics decorator does, around the overlays the controllers see.
  const cloudProvider = instrumentCloudProvider(
    new OverlaidCloudProvider(o.cloudProvider, () => overlayRules(informers.nodeOverlays.cache.list())),
    metrics,
    o.clock,
  );
  const context: ControllerContext = {
    client: o.client,
    informers,
    state,
    clock: o.clock,
    cloudProvider,
    recorder,
    log: o.log,
    metrics,
    options: o.options,
  };
  const controllers = [...(o.providerControllers ?? []), ...newControllers(context)];
  const extra = o.providerInformers ?? [];
  for (const i of extra) i.start();
  await Promise.all([startInformers(informers, unserved), ...extra.map((i) => i.waitForSync())]);
  o.onSynced?.();
  // A standby keeps its caches warm (controller-runtime starts caches before election) but runs no controller.
  const lead = o.waitToLead ? await o.waitToLead() : true;
  // operatorpkg's status controller runs like any controller: on the leader only.
  const core = coreStatusKinds();
  const stopStatus = lead
    ? reportStatusConditions(metrics.statusConditions, o.clock, [
        { kind: core.nodeClaim, objects: informers.nodeClaims },
        { kind: core.nodePool, objects: informers.nodePools },
        { kind: core.node, objects: informers.nodes },
        ...(o.providerStatusSources ?? []),
      ])
    : () => undefined;
  const workers = 4;
  const runs = (lead ? controllers : []).map((c) =>
    runReconciler({
      queue: c.queue,
      reconciler: c,
      workers,
      observer: metrics.controllers.instrument(c.name, c.queue, workers),
      ...(o.reconcileContext ? { around: o.reconcileContext.run.bind(o.reconcileContext) } : {}),
      onError: (key, e) => o.log.error({ controller: c.name, key, err: e }, 'reconcile failed'),
    }),
  );
  let running = true;
  return {
    context,
    controllers,
    ready: () => running,
    stop: async () => {
      running = false;
      stopStatus();
      for (const c of controllers) {
        c.stop?.();
        c.queue.shutDown();
      }
      if (!o.sharedInformers) stopInformers(informers);
      for (const i of extra) i.stop();
      await Promise.all(runs);
    },
  };
}
