import type { CloudProvider } from '../cloudprovider/index.js';
import type { Clock } from '../clock/index.js';
import type { EventRecorder, KubeClient } from '../kube/index.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { Options } from '../settings/options.js';
import type { ClusterState } from '../state/cluster-state.js';
import type { ClusterInformers } from '../state/informers.js';

/** What every controller is given: cluster access, caches, time, the cloud, and where to report. */
export interface ControllerContext {
  client: KubeClient;
  informers: ClusterInformers;
  state: ClusterState;
  clock: Clock;
  cloudProvider: CloudProvider;
  recorder: EventRecorder;
  log: Logger;
  metrics: Metrics;
  options: Options;
}
