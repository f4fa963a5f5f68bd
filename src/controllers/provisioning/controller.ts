/**
 * provisioning: batches unschedulable pods, solves them against cluster state, creates the NodeClaims the
 * solution needs, nominates pods to in-flight capacity, and tells every pod it could not place why.
 */
import { bufferPods } from '../capacitybuffer/buffer-pods.js';
import { withinReservations } from './reservations.js';
import type { InstanceType as ProviderInstanceType } from '../../cloudprovider/index.js';
import {
  Resources,
  TokenBucket,
  WorkQueue,
  type Pod,
  type Reconciler,
  type ReconcileResult,
} from '../../kube/index.js';
import { solve, SolveCache, type NewNodeClaim, type SchedulingResult } from '../../scheduling/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../../state/informers.js';
import { UnplacedDiagnoser } from '../../explain/index.js';
import { cloudPool } from '../cloud-objects.js';
import type { ControllerContext } from '../context.js';
import { EventReasons } from '../event-reasons.js';
import { Batcher } from './batcher.js';
import { nodeClaimFor } from './nodeclaim-template.js';
import { isProvisionable } from './provisionable.js';
import {
  buildSchedulingInput,
  SchedulingInputCache,
  toSchedulingInstanceType,
  type ProvisioningView,
} from './scheduling-input.js';

/** The single key the provisioner's queue carries: one pass schedules every pending pod. */
export const provisioningKey = 'provision';

/**
 * How long after a pass that left pods provisionable the batcher is triggered again without a new pod event
 * (Karpenter's pod controller requeues each provisionable pod every 10 s, and each requeue triggers the batcher).
 */
const retryUnplacedMs = 10_000;

/** NodePools that may launch for pods: not being deleted, not reported not Ready, and not static (replicas). */
function launchable(pools: readonly StoredNodePool[]): StoredNodePool[] {
  return pools.filter(
    (np) =>
      !np.metadata.deletionTimestamp &&
      np.spec.replicas === undefined &&
      np.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'False',
  );
}

/** What one pass did, for tests, benchmarks and logs. */
export interface ProvisioningPass {
  /** Clock time the pass began (the batch window had closed). */
  startedAt: number;
  pods: number;
  /** Each NodeClaim created, the pods it is for, and when its create returned. */
  created: CreatedNodeClaim[];
  nominated: number;
  unplaced: number;
  solveMs: number;
}

/** A NodeClaim one pass created. */
export interface CreatedNodeClaim {
  nodeClaim: StoredNodeClaim;
  /** `namespace/name` of the pods it was planned for. */
  pods: string[];
  at: number;
}

/** The provisioning controller. */
export class ProvisioningController implements Reconciler {
  readonly name = 'provisioning';
  readonly queue: WorkQueue;
  private readonly batcher: Batcher;
  /** The solver's memos and the input's instance type views, kept across passes (see solve-cache.ts). */
  private readonly solveCache = new SolveCache();
  private readonly inputCache = new SchedulingInputCache();
  /** Nomination Events of the current pass, sent once its NodeClaims are created (they must not delay them). */
  private pendingEvents: Array<{ pod: Pod; message: string }> = [];
  /** Karpenter's pod nomination limiter: Nominated events across all pods at 5 a second, bursts of 10. */
  private readonly nominationLimiter = new TokenBucket(5, 10);
  /** Cancels the pending retry trigger (see retryUnplacedMs). */
  private cancelRetry: (() => void) | undefined;
  /** Called after every pass (the benchmark and tests observe passes through it). */
  onPass: ((pass: ProvisioningPass) => void) | undefined;

  /** Creates the controller and subscribes it to pod, NodePool and NodeClaim changes. */
  constructor(private readonly ctx: ControllerContext) {
    this.queue = new WorkQueue(ctx.clock);
    const o = ctx.options;
    this.batcher = new Batcher(ctx.clock, { idleMs: o.batchIdleDuration, maxMs: o.batchMaxDuration }, () =>
      this.queue.add(provisioningKey),
    );
    const onPod = (p: Pod): void => {
      if (isProvisionable(p)) this.batcher.trigger();
    };
    ctx.informers.pods.on({ add: onPod, update: (_o, p) => onPod(p) });
    ctx.informers.nodePools.on({ add: () => this.batcher.trigger(), update: () => this.batcher.trigger() });
    ctx.informers.capacityBuffers.on({ add: () => this.batcher.trigger(), update: () => this.batcher.trigger() });
    // A NodeClaim that went away (e.g. insufficient capacity) sends its pods back here.
    ctx.informers.nodeClaims.on({ delete: () => this.batcher.trigger() });
    ctx.informers.nodes.on({
      update: (old, n) =>
        old.metadata.deletionTimestamp ? undefined : n.metadata.deletionTimestamp && this.batcher.trigger(),
    });
  }

  /** One provisioning pass over every pending pod. */
  async reconcile(): Promise<ReconcileResult | void> {
    if (!this.ctx.state.synced()) return { requeueAfter: 100 };
    const startedAt = this.ctx.clock.now();
    const pools = launchable(this.ctx.informers.nodePools.cache.list());
    const types = await this.instanceTypes(pools);
    const view = buildSchedulingInput(this.ctx.state, pools, types, this.inputCache);
    // CapacityBuffers' virtual pods come after the real ones (capacitybuffer/resolve.ts).
    const virtual = bufferPods(this.ctx.informers);
    if (view.pods.size === 0 && virtual.length === 0) return;
    const started = this.ctx.clock.now();
    const pods = virtual.length === 0 ? view.input.pods : [...view.input.pods, ...virtual];
    const result = solve(
      { ...view.input, pods, preferencePolicy: this.ctx.options.preferencePolicy },
      undefined,
      this.solveCache,
    );
    const solveMs = this.ctx.clock.now() - started;
    this.ctx.metrics.schedulingDuration.labels({ controller: this.name }).observe(solveMs / 1000);
    this.ctx.metrics.schedulingQueueDepth.labels({ controller: this.name }).set(view.pods.size);
    this.ctx.metrics.unschedulablePods.set({ controller: this.name }, result.unplaced.length);
    const planned = withinReservations(result.newNodeClaims, types);
    const { created, failed } = await this.createNodeClaims(planned, pools, view.pods);
    this.nominateInFlight(result, view.pods);
    this.flushEvents();
    this.reportUnplaced(result, view, types);
    this.ctx.log.info(
      {
        controller: this.name,
        pods: view.pods.size,
        nodeClaims: created.length,
        nominated: result.nominated.length,
        unplaced: result.unplaced.length,
        solveMs,
      },
      'provisioning pass',
    );
    this.onPass?.({
      startedAt,
      pods: view.pods.size,
      created,
      nominated: result.nominated.length,
      unplaced: result.unplaced.length,
      solveMs,
    });
    // A failed create is the queue's to retry, with back-off: its pods may never change again to re-trigger a pass.
    if (failed.length > 0)
      throw new Error(`creating ${failed.length} of ${result.newNodeClaims.length} NodeClaims failed: ${failed[0]}`);
    // As Karpenter's pod controller requeues every provisionable pod: a pod nominated to capacity that then went
    // away may never change again (a real kube-scheduler leaves its condition as it was), yet needs another pass.
    // Buffers are topped up again once real pods have taken their room, which no pod event announces.
    if (view.pods.size > 0 || virtual.length > 0) this.retryLater();
    return undefined;
  }

  /** Stops the batch and retry timers. */
  stop(): void {
    this.batcher.stop();
    this.cancelRetry?.();
    this.cancelRetry = undefined;
  }

  /**
   * Triggers the batcher once `retryUnplacedMs` from now. Through the batcher, not straight to the queue: pods that
   * keep arriving (a StatefulSet's volumes binding one by one) then wait for one batch window instead of each
   * retry solving a part of them and launching nodes for that part alone.
   */
  private retryLater(): void {
    this.cancelRetry?.();
    this.cancelRetry = this.ctx.clock.setTimer(retryUnplacedMs, () => {
      this.cancelRetry = undefined;
      this.batcher.trigger();
    });
  }

  private async instanceTypes(pools: readonly StoredNodePool[]): Promise<Map<string, ProviderInstanceType[]>> {
    const out = new Map<string, ProviderInstanceType[]>();
    await Promise.all(
      pools.map(async (np) => {
        out.set(np.metadata.name ?? '', await this.ctx.cloudProvider.getInstanceTypes(cloudPool(np)));
      }),
    );
    return out;
  }

  private nominationTtl(): number {
    // Karpenter's nomination window: twice the max batch, at least 10 s.
    return Math.max(10_000, 2 * this.ctx.options.batchMaxDuration);
  }

  /** Creates the planned NodeClaims; returns those made and the error message of each that failed. */
  private async createNodeClaims(
    planned: readonly NewNodeClaim[],
    pools: readonly StoredNodePool[],
    pods: ReadonlyMap<string, Pod>,
  ): Promise<{ created: CreatedNodeClaim[]; failed: string[] }> {
    const byName = new Map(pools.map((p) => [p.metadata.name ?? '', p]));
    const made = await Promise.all(planned.map((p) => this.createOne(p, byName.get(p.nodePool), pods)));
    const created: CreatedNodeClaim[] = [];
    const failed: string[] = [];
    for (const m of made) {
      if (typeof m === 'string') failed.push(m);
      else if (m) created.push(m);
    }
    return { created, failed };
  }

  /** The NodeClaim created, undefined when its NodePool is gone, or the error message when the create failed. */
  private async createOne(
    planned: NewNodeClaim,
    pool: StoredNodePool | undefined,
    pods: ReadonlyMap<string, Pod>,
  ): Promise<CreatedNodeClaim | string | undefined> {
    if (!pool) return undefined;
    try {
      const nc = await this.ctx.client.create<StoredNodeClaim>(Resources.nodeClaims, nodeClaimFor(pool, planned));
      const name = nc.metadata.name ?? '';
      this.ctx.state.expectNodeClaim(name);
      this.ctx.metrics.nodeClaimsCreated
        .labels({ reason: 'provisioned', nodepool: planned.nodePool, min_values_relaxed: 'false' })
        .inc();
      // One target string for all its pods: a nomination is kept per pending pod.
      const target = `nodeclaim/${name}`;
      for (const key of planned.pods) this.nominate(pods.get(key), key, target);
      return { nodeClaim: nc, pods: planned.pods, at: this.ctx.clock.now() };
    } catch (e) {
      this.ctx.log.error({ controller: this.name, nodepool: planned.nodePool, err: e }, 'creating nodeclaim failed');
      return e instanceof Error ? e.message : String(e);
    }
  }

  private nominateInFlight(result: SchedulingResult, pods: ReadonlyMap<string, Pod>): void {
    // One target string per NodeClaim or node of this pass, shared by the nominations of all its pods (and built
    // once per target, not once per pod: a pass may nominate 150,000 pods).
    const targets = { nodeclaim: new Map<string, string>(), node: new Map<string, string>() };
    const targetOf = (kind: 'nodeclaim' | 'node', name: string): string => {
      const known = targets[kind].get(name);
      if (known !== undefined) return known;
      const target = [kind, name].join('/');
      targets[kind].set(name, target);
      return target;
    };
    for (const n of result.nominated) this.nominate(pods.get(n.pod), n.pod, targetOf('nodeclaim', n.nodeClaim));
    for (const n of result.existingNodes) this.nominate(pods.get(n.pod), n.pod, targetOf('node', n.node));
  }

  private nominate(pod: Pod | undefined, key: string, target: string): void {
    const before = this.ctx.state.nominationOf(key)?.target;
    this.ctx.state.nominate(key, target, this.nominationTtl());
    if (!pod || before === target) return;
    this.pendingEvents.push({ pod, message: `Pod should schedule on: ${target}` });
  }

  private flushEvents(): void {
    const events = this.pendingEvents;
    this.pendingEvents = [];
    const now = this.ctx.clock.now();
    for (const e of events) {
      // Once the shared limiter is empty every later Nominated event of this pass is refused: a pass over 150,000
      // pending pods stops here instead of offering each of them.
      if (!this.nominationLimiter.hasToken(now)) break;
      // One Nominated event per pod per 2 minutes, as Karpenter: nominations move between in-flight NodeClaims.
      const dedupe = { values: [e.pod.metadata.uid ?? e.pod.metadata.name ?? ''] };
      void this.ctx.recorder.publish(e.pod, {
        type: 'Normal',
        reason: EventReasons.nominated,
        message: e.message,
        dedupe,
        limiter: this.nominationLimiter,
      });
    }
  }

  private reportUnplaced(
    result: SchedulingResult,
    view: ProvisioningView,
    types: ReadonlyMap<string, ProviderInstanceType[]>,
  ): void {
    if (result.unplaced.length === 0) return;
    const byPool = new Map(
      [...types].map(([pool, list]) => [pool, list.map((it) => toSchedulingInstanceType(it, this.inputCache))]),
    );
    // Every NodePool, launchable or not: one that is not Ready (its NodeClass is not) is the cause users look for.
    const diagnoser = new UnplacedDiagnoser({
      nodePools: this.ctx.informers.nodePools.cache.list(),
      nodeClaims: this.ctx.informers.nodeClaims.cache.list(),
      instanceTypes: byPool,
      volumes: view.input.volumes ?? {},
    });
    for (const u of result.unplaced) {
      const pod = view.pods.get(u.pod);
      if (!pod) continue;
      const found = diagnoser.diagnose(pod, u.reasons);
      const why = found
        ? `${found.cause.message}; fix: ${found.fix}`
        : u.reasons.map((r) => r.message).join('; ') || 'no nodepool could place it';
      // One event per cause: the same cause again within 5 minutes is not repeated, a different one is reported.
      const dedupe = {
        values: [pod.metadata.uid ?? pod.metadata.name ?? '', found?.cause.constraint ?? '', found?.cause.object ?? ''],
        timeoutMs: 5 * 60_000,
      };
      void this.ctx.recorder.publish(pod, {
        type: 'Warning',
        reason: EventReasons.failedScheduling,
        message: `Failed to schedule pod, ${why}`,
        dedupe,
      });
    }
  }
}
