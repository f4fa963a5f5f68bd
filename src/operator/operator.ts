import type { CloudProvider } from '../cloudprovider/index.js';
import type { Clock } from '../clock/index.js';
import { newControllers, type Controller, type ControllerContext } from '../controllers/index.js';
import { EventRecorder, runReconciler, type KubeClient } from '../kube/index.js';
import type { Logger } from '../observability/logger.js';
import { Metrics } from '../observability/metrics.js';
import type { Options } from '../settings/options.js';
import { ClusterState } from '../state/cluster-state.js';
import { createInformers, startInformers, stopInformers } from '../state/informers.js';

/** What the operator needs from its caller: cluster access, the cloud, time, settings and a logger. */
export interface OperatorOptions {
  client: KubeClient;
  cloudProvider: CloudProvider;
  clock: Clock;
  options: Options;
  log: Logger;
  metrics?: Metrics;
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
  const informers = createInformers(o.client, o.clock);
  const metrics = o.metrics ?? new Metrics();
  const recorder = new EventRecorder({ client: o.client, clock: o.clock, component: 'karpenter', onError: (e) => o.log.warn({ err: e }, 'event not recorded') });
  const state = new ClusterState(informers, o.clock);
  const context: ControllerContext = { client: o.client, informers, state, clock: o.clock, cloudProvider: o.cloudProvider, recorder, log: o.log, metrics, options: o.options };
  const controllers = newControllers(context);
  await startInformers(informers);
  const runs = controllers.map((c) =>
    runReconciler({ queue: c.queue, reconciler: c, workers: 4, onError: (key, e) => o.log.error({ controller: c.name, key, err: e }, 'reconcile failed') }),
  );
  let running = true;
  return {
    context,
    controllers,
    ready: () => running,
    stop: async () => {
      running = false;
      for (const c of controllers) {
        c.stop?.();
        c.queue.shutDown();
      }
      stopInformers(informers);
      await Promise.all(runs);
    },
  };
}
