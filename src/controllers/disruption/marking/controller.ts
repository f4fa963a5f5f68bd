/**
 * nodeclaim.disruption: keeps the conditions disruption decides on visible on each initialized NodeClaim —
 * `Drifted` (with the drift reason), `Empty` (no reschedulable pods) and `Consolidatable` (consolidateAfter has
 * passed since the last pod event) — and records `status.lastPodEventTime` from pod binds and departures (the
 * job of Karpenter's nodeclaim.podevents). One status write per reconcile, only when something changed.
 */
import { ConditionReasons, ConditionTypes, Labels } from '../../../api/index.js';
import { rfc3339 } from '../../../clock/index.js';
import {
  ignoreNotFound,
  Resources,
  updateWithRetry,
  WorkQueue,
  type Pod,
  type Reconciler,
  type ReconcileResult,
} from '../../../kube/index.js';
import { formatDuration, parseDuration } from '../../../settings/duration.js';
import type { StoredNodeClaim, StoredNodePool } from '../../../state/informers.js';
import { getCondition, isTrue, setCondition, type ConditionLike } from '../../conditions.js';
import type { ControllerContext } from '../../context.js';
import { isReschedulable } from '../../provisioning/provisionable.js';
import { driftOf } from './drift.js';

/** Karpenter's NodeClaim condition for nodes without reschedulable pods (kept from v1beta1 for visibility). */
export const EmptyConditionType = 'Empty';
/** Pod events closer together than this are recorded once (Karpenter dedupes lastPodEventTime writes too). */
const podEventDedupeMs = 5_000;
/** Provider drift (AMI, subnets…) is re-checked this often without a watch event. */
const driftRecheckMs = 5 * 60_000;

type Update = { type: string; status: 'True'; reason: string; message: string } | { type: string; remove: true };

function apply(conds: readonly ConditionLike[], updates: readonly Update[], now: number): ConditionLike[] {
  let out: ConditionLike[] = [...conds];
  for (const u of updates) {
    if ('remove' in u) out = out.filter((c) => c.type !== u.type);
    else out = setCondition(out, u, { now });
  }
  return out;
}

function same(a: readonly ConditionLike[], b: readonly ConditionLike[]): boolean {
  const key = (cs: readonly ConditionLike[]): string =>
    JSON.stringify(
      [...cs].sort((x, y) => x.type.localeCompare(y.type)).map((c) => [c.type, c.status, c.reason, c.message]),
    );
  return key(a) === key(b);
}

/** The marking controller. */
export class NodeClaimDisruptionController implements Reconciler {
  readonly name = 'nodeclaim.disruption';
  readonly queue: WorkQueue;
  private readonly podEvents = new Map<string, number>();

  /** Creates the controller and wires NodeClaim, NodePool and pod events to it. */
  constructor(private readonly ctx: ControllerContext) {
    this.queue = new WorkQueue(ctx.clock);
    const enqueue = (nc: StoredNodeClaim): void => this.queue.add(nc.metadata.name ?? '');
    // A deleted NodeClaim's last pod event is forgotten with it, so the map holds only NodeClaims that exist.
    ctx.informers.nodeClaims.on({
      add: enqueue,
      update: (_o, nc) => enqueue(nc),
      delete: (nc) => this.podEvents.delete(nc.metadata.name ?? ''),
    });
    ctx.informers.nodePools.on({ update: (_o, np) => this.enqueuePool(np) });
    const onPod = (p: Pod): void => this.podEvent(p);
    ctx.informers.pods.on({
      add: onPod,
      update: (o, p) =>
        o.spec.nodeName !== p.spec.nodeName || o.status?.phase !== p.status?.phase ? onPod(p) : undefined,
      delete: onPod,
    });
  }

  private enqueuePool(np: StoredNodePool): void {
    for (const nc of this.ctx.informers.nodeClaims.cache.list())
      if (nc.metadata.labels?.[Labels.nodePool] === np.metadata.name) this.queue.add(nc.metadata.name ?? '');
  }

  private podEvent(p: Pod): void {
    const nodeName = p.spec.nodeName;
    const node = nodeName ? this.ctx.informers.nodes.cache.get(nodeName) : undefined;
    const nc = node ? this.ctx.state.nodeClaimOf(node) : undefined;
    if (!nc?.metadata.name) return;
    this.podEvents.set(nc.metadata.name, this.ctx.clock.now());
    this.queue.add(nc.metadata.name);
  }

  /** Brings one NodeClaim's disruption conditions up to date. */
  async reconcile(name: string): Promise<ReconcileResult | void> {
    const nc = this.ctx.informers.nodeClaims.cache.get(name);
    if (!nc || nc.metadata.deletionTimestamp || !isTrue(nc.status?.conditions, ConditionTypes.initialized)) return;
    const pool = this.ctx.informers.nodePools.cache.get(nc.metadata.labels?.[Labels.nodePool] ?? '');
    const node = this.ctx.state.nodeOf(nc);
    if (!pool || !node) return;
    const now = this.ctx.clock.now();
    const lastPodEvent = this.lastPodEvent(nc);
    const updates: Update[] = [];
    const drift = await driftOf(nc, pool, node.metadata.labels ?? {}, this.ctx.cloudProvider);
    updates.push(
      drift
        ? { type: ConditionTypes.drifted, status: 'True', reason: drift.reason, message: drift.message }
        : { type: ConditionTypes.drifted, remove: true },
    );
    const empty = !this.ctx.state.podsOn(node.metadata.name ?? '').some(isReschedulable);
    updates.push(
      empty
        ? {
            type: EmptyConditionType,
            status: 'True',
            reason: ConditionReasons.empty,
            message: 'no reschedulable pods on the node',
          }
        : { type: EmptyConditionType, remove: true },
    );
    const consolidatable = this.consolidatable(pool, lastPodEvent, now);
    updates.push(consolidatable.update);
    await this.write(nc, { updates, lastPodEvent, now });
    return { requeueAfter: Math.min(driftRecheckMs, consolidatable.in ?? driftRecheckMs) };
  }

  private lastPodEvent(nc: StoredNodeClaim): number {
    const stored = Date.parse(nc.status?.lastPodEventTime ?? '');
    const seen = this.podEvents.get(nc.metadata.name ?? '');
    const initialized = Date.parse(
      getCondition(nc.status?.conditions, ConditionTypes.initialized)?.lastTransitionTime ?? '',
    );
    return Math.max(Number.isFinite(stored) ? stored : 0, seen ?? 0, Number.isFinite(initialized) ? initialized : 0);
  }

  private consolidatable(pool: StoredNodePool, lastPodEvent: number, now: number): { update: Update; in?: number } {
    const after = pool.spec.disruption?.consolidateAfter ?? '0s';
    const ms = after === 'Never' ? undefined : parseDuration(after);
    if (ms === undefined) return { update: { type: ConditionTypes.consolidatable, remove: true } };
    const at = lastPodEvent + ms;
    if (now < at) return { update: { type: ConditionTypes.consolidatable, remove: true }, in: at - now };
    return {
      update: {
        type: ConditionTypes.consolidatable,
        status: 'True',
        reason: ConditionReasons.consolidatable,
        message: `consolidateAfter (${formatDuration(ms)}) has passed since the last pod event`,
      },
    };
  }

  private async write(nc: StoredNodeClaim, w: { updates: Update[]; lastPodEvent: number; now: number }): Promise<void> {
    await updateWithRetry<StoredNodeClaim>({
      client: this.ctx.client,
      resource: Resources.nodeClaims,
      ref: { name: nc.metadata.name ?? '' },
      current: nc,
      subresource: 'status',
      mutate: (fresh) => {
        const conds = fresh.status?.conditions ?? [];
        const next = apply(conds, w.updates, w.now);
        const stored = Date.parse(fresh.status?.lastPodEventTime ?? '');
        const bump = w.lastPodEvent > 0 && (!Number.isFinite(stored) || w.lastPodEvent - stored >= podEventDedupeMs);
        if (same(conds, next) && !bump) return undefined;
        fresh.status = {
          ...fresh.status,
          conditions: next,
          ...(bump ? { lastPodEventTime: rfc3339(w.lastPodEvent) } : {}),
        };
        return fresh;
      },
    }).catch(ignoreNotFound);
  }
}
