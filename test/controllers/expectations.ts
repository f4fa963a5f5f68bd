/**
 * Controller unit tests in Karpenter's style (ExpectApplied, ExpectReconciled, ExpectNotFound): one controller is
 * reconciled by hand, object by object, against the embedded API server called in process (no HTTP), with the
 * informers the controllers read, the fake cloud provider and a fake clock the test moves. Nothing runs in the
 * background: no work queue is drained and no timer fires unless the test advances the clock.
 */
import { Writable } from 'node:stream';
import { afterEach, beforeEach } from 'vitest';
import { Finalizers, KarpenterApiVersion, Labels, UnregisteredTaint, type Taint } from '../../src/api/index.js';
import { startApiServer, type ApiServer } from '../../src/apiserver/index.js';
import { FakeCloudProvider } from '../../src/cloudprovider/fake/index.js';
import { FakeClock, rfc3339 } from '../../src/clock/index.js';
import type { ControllerContext } from '../../src/controllers/context.js';
import {
  EventRecorder,
  isNotFound,
  KubeClient,
  Resources,
  type KubeObject,
  type Node,
  type Reconciler,
  type ReconcileResult,
  type ResourceType,
} from '../../src/kube/index.js';
import { createLogger } from '../../src/observability/logger.js';
import { Metrics } from '../../src/observability/metrics.js';
import { defaultOptions, type Options } from '../../src/settings/options.js';
import { inProcessTransport } from '../../src/sim/playground/in-process-transport.js';
import { ClusterState } from '../../src/state/cluster-state.js';
import {
  createInformers,
  startInformers,
  stopInformers,
  type ClusterInformers,
  type StoredNodeClaim,
} from '../../src/state/informers.js';
import { testInstanceTypes } from './harness.js';

/** One test's cluster: the client, the informers' context the controllers get, the fake cloud and clock. */
export interface ControllerEnv {
  client: KubeClient;
  clock: FakeClock;
  cloud: FakeCloudProvider;
  ctx: ControllerContext;
}

/**
 * A fresh cluster for every test of the file (started before each, stopped after). Returns its getter.
 * `options` override the controllers' defaults.
 */
export function controllerSuite(options: Partial<Options> = {}): () => ControllerEnv {
  let server: ApiServer | undefined;
  let env: ControllerEnv | undefined;
  beforeEach(async () => {
    const clock = new FakeClock();
    server = await startApiServer({ clock, podGrace: 'immediate' });
    const client = new KubeClient(inProcessTransport(server));
    const informers = createInformers(client, clock);
    const cloud = new FakeCloudProvider({ instanceTypes: testInstanceTypes() });
    const ctx: ControllerContext = {
      client,
      informers,
      state: new ClusterState(informers, clock),
      clock,
      cloudProvider: cloud,
      recorder: new EventRecorder({ client, clock, component: 'karpenter' }),
      log: createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
      metrics: new Metrics(),
      options: { ...defaultOptions, clusterName: 'test', ...options },
    };
    await startInformers(informers);
    env = { client, clock, cloud, ctx };
  });
  afterEach(async () => {
    if (env) stopInformers(env.ctx.informers);
    await server?.close();
    env = undefined;
  });
  return () => {
    if (!env) throw new Error('controllerSuite: used outside a test');
    return env;
  };
}

/** What the tests read of an informer's cache. */
interface CacheView {
  get(key: string): KubeObject | undefined;
  list(): readonly KubeObject[];
}

/** The cache of the informer of `rt` (the kinds these tests write). */
function cacheFor(informers: ClusterInformers, rt: ResourceType<unknown>): CacheView {
  const byResource = new Map<ResourceType<unknown>, CacheView>([
    [Resources.nodeClaims, informers.nodeClaims.cache],
    [Resources.nodePools, informers.nodePools.cache],
    [Resources.nodes, informers.nodes.cache],
    [Resources.pods, informers.pods.cache],
  ]);
  const found = byResource.get(rt);
  if (!found) throw new Error(`no informer caches ${rt.kind}`);
  return found;
}

/**
 * Waits, by event-loop turns and not by time, until the informers show `done` true. The server is in process, so
 * its watch events arrive within a few turns; a bounded count keeps a broken test from hanging.
 */
export async function settled(done: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 10_000; turn++) {
    if (done()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`the informers never showed ${what}`);
}

/** Waits until the informer of `rt` caches `obj` at its resourceVersion (or, `gone`, no longer caches it). */
export async function expectCached<T extends KubeObject>(
  env: ControllerEnv,
  rt: ResourceType<T>,
  obj: T,
  o: { gone?: boolean } = {},
): Promise<void> {
  const cache = cacheFor(env.ctx.informers, rt);
  const key = obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : (obj.metadata.name ?? '');
  const rv = obj.metadata.resourceVersion;
  await settled(
    () => {
      const cached = cache.get(key);
      return o.gone ? cached === undefined : cached?.metadata.resourceVersion === rv;
    },
    `${rt.kind} ${key}${o.gone ? ' deleted' : ` at ${rv}`}`,
  );
}

/** Creates the object (or updates it, when it exists) and waits until the informers cache what was stored. */
export async function expectApplied<T extends KubeObject>(env: ControllerEnv, rt: ResourceType<T>, obj: T): Promise<T> {
  const ref = { name: obj.metadata.name ?? '', namespace: obj.metadata.namespace };
  const existing = await env.client.get<T>(rt, ref).catch((e: unknown) => {
    if (isNotFound(e)) return undefined;
    throw e;
  });
  const stored = existing
    ? await env.client.update<T>(rt, {
        ...obj,
        metadata: { ...obj.metadata, resourceVersion: existing.metadata.resourceVersion },
      })
    : await env.client.create<T>(rt, obj);
  // Releasing the last finalizer of an object being deleted deletes it.
  const released = stored.metadata.deletionTimestamp !== undefined && !stored.metadata.finalizers?.length;
  await expectCached(env, rt, stored, { gone: released });
  return stored;
}

/** Runs one reconcile of `name` and waits until the informers show what it wrote. */
export async function expectReconciled(
  env: ControllerEnv,
  controller: Reconciler,
  name: string,
): Promise<ReconcileResult | void> {
  const result = await controller.reconcile(name);
  await settledWrites(env);
  return result;
}

/** Waits until every informer has caught up with the server (the server's latest resourceVersion is cached). */
async function settledWrites(env: ControllerEnv): Promise<void> {
  for (const rt of [Resources.nodeClaims, Resources.nodes]) {
    const list = await env.client.list<KubeObject>(rt);
    const cache = cacheFor(env.ctx.informers, rt);
    await settled(
      () =>
        list.items.every(
          (o) => cache.get(o.metadata.name ?? '')?.metadata.resourceVersion === o.metadata.resourceVersion,
        ) && cache.list().every((c) => list.items.some((o) => o.metadata.name === c.metadata.name)),
      `${rt.kind}s as the server stores them`,
    );
  }
}

/** The stored object, failing the test when it does not exist. */
export async function expectExists<T extends KubeObject>(
  env: ControllerEnv,
  rt: ResourceType<T>,
  name: string,
): Promise<T> {
  return env.client.get<T>(rt, { name });
}

/** True when the object is gone from the server. */
export async function expectNotFound(env: ControllerEnv, rt: ResourceType<unknown>, name: string): Promise<boolean> {
  return env.client.get<KubeObject>(rt as ResourceType<KubeObject>, { name }).then(
    () => false,
    (e: unknown) => {
      if (isNotFound(e)) return true;
      throw e;
    },
  );
}

/** A NodeClaim of the NodePool `default` asking for the test's instance types, as provisioning creates it. */
export function nodeClaim(name: string, o: Partial<StoredNodeClaim['spec']> = {}): StoredNodeClaim {
  return {
    apiVersion: KarpenterApiVersion,
    kind: 'NodeClaim',
    metadata: { name, labels: { [Labels.nodePool]: 'default' }, finalizers: [Finalizers.termination] },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      requirements: [{ key: Labels.instanceType, operator: 'In', values: ['small', 'medium', 'large'] }],
      resources: { requests: { cpu: '1' } },
      ...o,
    },
  };
}

/** The Events recorded about the object named `name`. */
export async function eventsAbout(
  env: ControllerEnv,
  name: string,
): Promise<Array<{ type?: string; reason?: string; message?: string }>> {
  const list = await env.client.list<KubeObject & { type?: string; reason?: string; message?: string }>(
    Resources.events,
    { fieldSelector: `involvedObject.name=${name}` },
  );
  return list.items;
}

/** Applies a NodeClaim and reconciles it once: the launched NodeClaim as stored. */
export async function expectLaunched(
  env: ControllerEnv,
  controller: Reconciler,
  claim: StoredNodeClaim,
): Promise<StoredNodeClaim> {
  await expectApplied(env, Resources.nodeClaims, claim);
  await expectReconciled(env, controller, claim.metadata.name ?? '');
  return expectExists<StoredNodeClaim>(env, Resources.nodeClaims, claim.metadata.name ?? '');
}

/**
 * Registers the NodeClaim's Node as a kubelet launched with Karpenter's userData would: its providerID, the
 * NodeClaim's labels, the `karpenter.sh/unregistered` taint with the NodeClaim's taints and startup taints (or
 * `taints` when given), then Ready (unless `ready` is false) with the instance's allocatable.
 */
export async function expectRegisteredNode(
  env: ControllerEnv,
  nc: StoredNodeClaim,
  o: { taints?: Taint[]; ready?: boolean; labels?: Record<string, string> } = {},
): Promise<Node> {
  const name = `node-${nc.metadata.name ?? ''}`;
  const taints = o.taints ?? [UnregisteredTaint, ...(nc.spec.taints ?? []), ...(nc.spec.startupTaints ?? [])];
  await env.client.create<Node>(Resources.nodes, {
    metadata: { name, labels: { [Labels.hostname]: name, ...o.labels } },
    spec: { providerID: nc.status?.providerID, taints },
  });
  const at = rfc3339(env.clock.now());
  const ready = o.ready ?? true;
  const node = await env.client.patch<Node>(
    Resources.nodes,
    { name },
    {
      status: {
        capacity: nc.status?.capacity,
        allocatable: nc.status?.allocatable,
        conditions: [
          {
            type: 'Ready',
            status: ready ? 'True' : 'False',
            reason: ready ? 'KubeletReady' : 'KubeletNotReady',
            lastHeartbeatTime: at,
            lastTransitionTime: at,
          },
        ],
      },
    },
    { subresource: 'status' },
  );
  await expectCached(env, Resources.nodes, node);
  return node;
}
