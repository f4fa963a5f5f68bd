/** Attaching a playground to an existing cluster: what it leaves to the cluster, and how it reaches it. */
import { KubeConfig } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import type { ApiServer } from '../../apiserver/index.js';
import { transportFromKubeConfig, type Transport } from '../../kube/index.js';
import { WallTimeMap, simTimeTransport, type SimClock } from '../clock/index.js';
import type { AgentName } from '../world/world.js';

/** The cluster a playground attaches to. */
export interface ClusterAttachment {
  kubeconfig: string;
  /** Where simulated time starts: now, or later (scenario runs start at midnight UTC; the time map keeps the offset). */
  startMs: number;
}

/** The simulated agents a cluster with its own kube-scheduler and kube-controller-manager already has. */
export const agentsTheClusterRuns: readonly AgentName[] = [
  'scheduler',
  'deployments',
  'replicaSets',
  'daemonSets',
  'statefulSets',
  'jobs',
  'nodeLifecycle',
];

/** How the playground reaches its API server, whichever it is. */
export interface Endpoint {
  /** The embedded server; undefined when attached to a cluster. */
  server?: ApiServer;
  url: string;
  caPem: string;
  kubeConfigYaml: string;
  transport: Transport;
  restored: boolean;
}

/** The wall-to-simulated map of an attached run, starting at the clock's start: times before it keep that offset. */
function attachedTimeMap(clock: SimClock): WallTimeMap {
  const map = new WallTimeMap();
  map.record(Date.now(), clock.now());
  return map;
}

/**
 * The endpoint of an attached cluster. The cluster stamps objects on the wall clock, and the playground measures
 * ages on `clock`: its transport maps one onto the other (sim-time-transport.ts).
 */
export async function clusterEndpoint(cluster: ClusterAttachment, clock: SimClock): Promise<Endpoint> {
  const kubeConfigYaml = readFileSync(cluster.kubeconfig, 'utf8');
  const kc = new KubeConfig();
  kc.loadFromString(kubeConfigYaml);
  const current = kc.getCurrentCluster();
  if (!current) throw new Error(`${cluster.kubeconfig}: the kubeconfig names no current cluster`);
  const caPem = current.caData
    ? Buffer.from(current.caData, 'base64').toString()
    : current.caFile
      ? readFileSync(current.caFile, 'utf8')
      : '';
  const transport = simTimeTransport(await transportFromKubeConfig(kc), { map: attachedTimeMap(clock), clock });
  return { url: current.server, caPem, kubeConfigYaml, transport, restored: false };
}
