/**
 * End-to-end harness for disruption: the embedded API server, the operator with every controller, the fake
 * cloud provider and a fake clock. Tests play the kubelet: they create the Node for each launched NodeClaim
 * and bind pods to nodes.
 */
import * as k8s from '@kubernetes/client-node';
import { Writable } from 'node:stream';
import { startApiServer, type ApiServer } from '../../src/apiserver/index.js';
import { ConditionTypes, Labels } from '../../src/api/index.js';
import { FakeCloudProvider, fakeInstanceType } from '../../src/cloudprovider/fake/index.js';
import { FakeClock } from '../../src/clock/index.js';
import { KubeClient, Resources, transportFromKubeConfig, type Node, type Pod } from '../../src/kube/index.js';
import { createLogger } from '../../src/observability/logger.js';
import { startOperator, type RunningOperator } from '../../src/operator/operator.js';
import { defaultOptions } from '../../src/settings/options.js';
import type { StoredNodeClaim } from '../../src/state/informers.js';

/** A running cluster with Tenon in it. */
export interface Cluster {
  server: ApiServer;
  client: KubeClient;
  clock: FakeClock;
  cloud: FakeCloudProvider;
  operator: RunningOperator;
  /** The operator's log lines at info and above (JSON), as users read them. */
  logs: string[];
  stop(): Promise<void>;
}

/** True once the NodeClaim is Initialized. */
export function isInitialized(nc: StoredNodeClaim | undefined): boolean {
  return nc?.status?.conditions?.some((x) => x.type === ConditionTypes.initialized && x.status === 'True') ?? false;
}

/** Sizes 2..16 cores on-demand in one zone, $0.05 per core. */
export function e2eTypes(): ReturnType<typeof fakeInstanceType>[] {
  return [2, 4, 8, 16].map((cpu) =>
    fakeInstanceType({
      name: `c.${cpu}x`,
      cpu,
      memoryGi: cpu * 4,
      offerings: [{ zone: 'zone-a', capacityType: 'on-demand', price: cpu * 0.05 }],
    }),
  );
}

/** Starts the API server and the operator. */
export async function startCluster(): Promise<Cluster> {
  const server = await startApiServer();
  const kc = new k8s.KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  const client = new KubeClient(await transportFromKubeConfig(kc));
  const clock = new FakeClock(Date.now());
  const cloud = new FakeCloudProvider({ instanceTypes: e2eTypes() });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const operator = await startOperator({
    client,
    cloudProvider: cloud,
    clock,
    options: { ...defaultOptions, disableLeaderElection: true },
    log: createLogger({ level: 'info', destination }),
  });
  return {
    server,
    client,
    clock,
    cloud,
    operator,
    logs,
    stop: async () => {
      await operator.stop();
      await server.close();
    },
  };
}

/** Waits for `check`, moving the fake clock `stepMs` between real-time polls. */
export async function eventually<T>(
  c: Cluster,
  check: () => Promise<T | undefined> | T | undefined,
  opts: { stepMs?: number; timeoutMs?: number } = {},
): Promise<T> {
  const end = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error('condition not reached in time');
    c.clock.advance(opts.stepMs ?? 0);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The NodeClaims in the cluster. */
export async function nodeClaims(c: Cluster): Promise<StoredNodeClaim[]> {
  return (await c.client.list<StoredNodeClaim>(Resources.nodeClaims)).items;
}

/** Plays the kubelet for a launched NodeClaim: a Ready Node with its providerID, labels and capacity. */
export async function bringUp(c: Cluster, nc: StoredNodeClaim, name: string): Promise<Node> {
  const labels = { ...nc.metadata.labels, [Labels.hostname]: name };
  const node = await c.client.create<Node>(Resources.nodes, {
    metadata: { name, labels },
    spec: {
      providerID: nc.status?.providerID ?? '',
      taints: [{ key: 'karpenter.sh/unregistered', effect: 'NoExecute' }],
    },
  } as Node);
  const status = {
    capacity: nc.status?.capacity,
    allocatable: nc.status?.allocatable,
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        lastHeartbeatTime: new Date().toISOString(),
        lastTransitionTime: new Date().toISOString(),
      },
    ],
  };
  return c.client.patch<Node>(
    Resources.nodes,
    { name: node.metadata.name ?? name },
    { status },
    { subresource: 'status' },
  );
}

/** A running pod bound to `node`, requesting `cpu` cores. */
export async function runPod(
  c: Cluster,
  name: string,
  node: string,
  cpu: number,
  annotations?: Record<string, string>,
): Promise<Pod> {
  await c.client.create<Pod>(Resources.pods, {
    metadata: { name, namespace: 'default', labels: { app: 'web' }, annotations },
    spec: {
      nodeName: node,
      containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: String(cpu), memory: '1Gi' } } }],
    },
  } as Pod);
  return c.client.patch<Pod>(
    Resources.pods,
    { name, namespace: 'default' },
    { status: { phase: 'Running' } },
    { subresource: 'status' },
  );
}

/**
 * A NodeClaim once launched, read until its providerID is stable: the lifecycle controller can launch twice
 * when it re-reconciles from a cache that has the metadata write but not yet the status write (reported).
 */
export async function launchedClaim(c: Cluster, name: string): Promise<StoredNodeClaim> {
  let last = '';
  return eventually(c, async () => {
    const nc = await c.client.get<StoredNodeClaim>(Resources.nodeClaims, { name }).catch(() => undefined);
    const id = nc?.status?.providerID ?? '';
    const stable = id !== '' && id === last;
    last = id;
    if (!stable) await new Promise((r) => setTimeout(r, 150));
    return stable ? nc : undefined;
  });
}
