/**
 * End-to-end harness for the controllers: the embedded API server over HTTPS, the real client-node KubeConfig,
 * Tenon's kube layer, the operator with every controller, the in-memory fake cloud provider and a fake clock
 * the test moves. Nodes are made by the test, as a kubelet would register them.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { Writable } from 'node:stream';
import { startApiServer } from '../../src/apiserver/index.js';
import { FakeCloudProvider, fakeInstanceType } from '../../src/cloudprovider/fake/index.js';
import type { InstanceType } from '../../src/cloudprovider/index.js';
import { FakeClock } from '../../src/clock/index.js';
import {
  KubeClient,
  Resources,
  transportFromKubeConfig,
  type KubeObject,
  type Node,
  type Pod,
} from '../../src/kube/index.js';
import { createLogger } from '../../src/observability/logger.js';
import { startOperator, type RunningOperator } from '../../src/operator/operator.js';
import { defaultOptions, type Options } from '../../src/settings/options.js';
import type { StoredNodeClaim, StoredNodePool } from '../../src/state/informers.js';
import { startMetricsServer } from '../../src/observability/health-server.js';

/** A running test cluster. */
export interface Harness {
  client: KubeClient;
  clock: FakeClock;
  cloud: FakeCloudProvider;
  operator: RunningOperator;
  server: Awaited<ReturnType<typeof startApiServer>>;
  /** Log lines the operator wrote (JSON). */
  logs: string[];
  stop(): Promise<void>;
}

/** Three small instance types in two zones, on-demand and spot. */
export function testInstanceTypes(): InstanceType[] {
  const offer = (price: number): Array<{ zone: string; capacityType: 'on-demand' | 'spot'; price: number }> => [
    { zone: 'test-zone-a', capacityType: 'on-demand', price },
    { zone: 'test-zone-b', capacityType: 'on-demand', price: price * 1.01 },
    { zone: 'test-zone-a', capacityType: 'spot', price: price * 0.4 },
  ];
  return [
    fakeInstanceType({ name: 'small', cpu: 2, memoryGi: 4, offerings: offer(0.1) }),
    fakeInstanceType({ name: 'medium', cpu: 4, memoryGi: 8, offerings: offer(0.2) }),
    fakeInstanceType({ name: 'large', cpu: 8, memoryGi: 16, offerings: offer(0.4) }),
  ];
}

/** Starts the API server and the operator. */
export async function startHarness(
  o: {
    options?: Partial<Options>;
    instanceTypes?: InstanceType[];
    /** The CRDs the server serves (default: all of Tenon's). */
    crds?: NonNullable<Parameters<typeof startApiServer>[0]>['crds'];
  } = {},
): Promise<Harness> {
  const clock = new FakeClock(Date.now());
  // Pods go at once when deleted (no kubelet here); timestamps follow the test's clock.
  const server = await startApiServer({ clock, podGrace: 'immediate', ...(o.crds ? { crds: o.crds } : {}) });
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  const client = new KubeClient(await transportFromKubeConfig(kc));
  const cloud = new FakeCloudProvider({ instanceTypes: o.instanceTypes ?? testInstanceTypes() });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(chunk.toString());
      cb();
    },
  });
  const options: Options = {
    ...defaultOptions,
    clusterName: 'test',
    batchIdleDuration: 50,
    batchMaxDuration: 500,
    ...o.options,
  };
  const operator = await startOperator({
    client,
    cloudProvider: cloud,
    clock,
    options,
    log: createLogger({ level: 'debug', destination }),
  });
  return {
    client,
    clock,
    cloud,
    operator,
    server,
    logs,
    stop: async () => {
      await operator.stop();
      await server.close();
    },
  };
}

/**
 * Polls `probe` until it returns a value (not undefined/false), advancing the fake clock by `advanceMs` between
 * polls so timers (batch windows, requeues, timeouts) fire. Throws with `what` after `timeoutMs` of real time.
 */
export async function eventually<T>(
  h: Harness,
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  o: { advanceMs?: number; timeoutMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (o.timeoutMs ?? 15_000);
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
    h.clock.advance(o.advanceMs ?? 100);
  }
}

/** A NodePool named `name` using the EC2NodeClass `default`. */
export async function createNodePool(
  h: Harness,
  name = 'default',
  spec: Partial<StoredNodePool['spec']> = {},
  template: Partial<StoredNodePool['spec']['template']['spec']> = {},
): Promise<StoredNodePool> {
  const np: StoredNodePool = {
    metadata: { name },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements: [],
          ...template,
        },
      },
      ...spec,
    } as StoredNodePool['spec'],
  };
  return h.client.create<StoredNodePool>(Resources.nodePools, np);
}

/** A pod the kube-scheduler found no node for: Pending with PodScheduled=False/Unschedulable. */
export async function createUnschedulablePod(
  h: Harness,
  name: string,
  requests: Record<string, string> = { cpu: '1', memory: '1Gi' },
  extra: Partial<Pod['spec']> = {},
  meta: Partial<Pod['metadata']> = {},
): Promise<Pod> {
  const created = await h.client.create<Pod>(Resources.pods, {
    metadata: { name, namespace: 'default', ...meta },
    spec: { containers: [{ name: 'app', image: 'app', resources: { requests } }], ...extra },
  });
  const status = {
    phase: 'Pending',
    conditions: [
      { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/0 nodes are available' },
    ],
  };
  return h.client
    .patch<Pod>(Resources.pods, { name, namespace: 'default' }, { status }, { subresource: 'status' })
    .catch(() => created);
}

/** Every NodeClaim. */
export async function nodeClaims(h: Harness): Promise<StoredNodeClaim[]> {
  return (await h.client.list<StoredNodeClaim>(Resources.nodeClaims)).items;
}

/** Registers a Node for a launched NodeClaim, as a kubelet launched with Karpenter's userData would. */
export async function registerNodeFor(
  h: Harness,
  nc: StoredNodeClaim,
  o: { taints?: Array<{ key: string; effect: string; value?: string }>; ready?: boolean; name?: string } = {},
): Promise<Node> {
  const name = o.name ?? `node-${nc.metadata.name ?? ''}`;
  const labels = { ...nc.metadata.labels, 'kubernetes.io/hostname': name };
  const taints = o.taints ?? [
    { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
    ...(nc.spec.taints ?? []),
    ...(nc.spec.startupTaints ?? []),
  ];
  const node = await h.client.create<Node>(Resources.nodes, {
    metadata: { name, labels },
    spec: { providerID: nc.status?.providerID, taints },
  } as Node);
  await setNodeReady(h, name, o.ready ?? true, nc.status?.allocatable);
  return node;
}

/** Writes the Node's Ready condition (and capacity) through the status subresource, as the kubelet does. */
export async function setNodeReady(
  h: Harness,
  name: string,
  ready: boolean | 'Unknown',
  allocatable?: Record<string, string | number>,
): Promise<void> {
  const now = new Date(h.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  const status = ready === 'Unknown' ? 'Unknown' : ready ? 'True' : 'False';
  const patch: Record<string, unknown> = {
    conditions: [
      {
        type: 'Ready',
        status,
        reason: ready === true ? 'KubeletReady' : 'NodeStatusUnknown',
        lastTransitionTime: now,
        lastHeartbeatTime: now,
      },
    ],
  };
  if (allocatable) {
    patch.allocatable = allocatable;
    patch.capacity = allocatable;
  }
  await h.client.patch(Resources.nodes, { name }, { status: patch }, { subresource: 'status' });
}

/** The object's condition of `type`. */
export function conditionOf(
  obj: KubeObject & {
    status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> };
  },
  type: string,
): { type: string; status: string; reason?: string; message?: string } | undefined {
  return obj.status?.conditions?.find((c) => c.type === type);
}

/** The value, or a test failure naming what was missing. */
export function must<T>(v: T | undefined | null, what: string): T {
  if (v === undefined || v === null) throw new Error(`expected ${what}`);
  return v;
}

/** The operator's /metrics text, as a Prometheus scrape reads it (a metrics server started for the one request). */
export async function scrapeMetrics(h: Harness): Promise<string> {
  const srv = await startMetricsServer({ port: 0, metrics: h.operator.context.metrics });
  try {
    return await (await fetch(`http://127.0.0.1:${srv.port}/metrics`)).text();
  } finally {
    await srv.close();
  }
}
