import { ConditionTypes, Finalizers, ConditionReasons } from '../../../api/index.js';
import {
  ignoreNotFound,
  ReadYourWrites,
  Resources,
  updateWithRetry,
  WorkQueue,
  type Node,
  type Reconciler,
  type ReconcileResult,
} from '../../../kube/index.js';
import { Indexes } from '../../../state/informers.js';
import { isTrue, setCondition, type ConditionLike } from '../../conditions.js';
import type { ControllerContext } from '../../context.js';
import { ignoreNodeClaimNotFound } from '../../../cloudprovider/index.js';
import { finalizeNodeClaim } from './finalize.js';
import { InitializationPhase } from './initialization.js';
import { LaunchPhase } from './launch.js';
import { LivenessPhase } from './liveness.js';
import { cloudClaim, earliest, type Phase, type StoredNodeClaim } from './phase.js';
import { RegistrationPhase } from './registration.js';

const ownedConditions: string[] = [
  ConditionTypes.launched,
  ConditionTypes.registered,
  ConditionTypes.initialized,
  ConditionTypes.ready,
];
const ownedStatusFields = ['providerID', 'imageID', 'capacity', 'allocatable', 'nodeName'] as const;

/**
 * nodeclaim.lifecycle: adds the finalizer, runs launch, registration, initialization and liveness on one
 * in-memory copy, then writes at most once each: metadata (labels, finalizer), then status (only the
 * conditions and fields this controller owns, onto a fresh read, so other controllers' conditions survive).
 */
export class NodeClaimLifecycleController implements Reconciler {
  readonly name = 'nodeclaim.lifecycle';
  readonly queue: WorkQueue;
  private readonly phases: Phase[];
  private readonly view: ReadYourWrites<StoredNodeClaim>;

  /** Creates the controller and wires its informer event handlers to its queue. */
  constructor(private readonly ctx: ControllerContext) {
    this.queue = new WorkQueue(ctx.clock);
    this.view = new ReadYourWrites(ctx.informers.nodeClaims.cache);
    this.phases = [
      new LaunchPhase(ctx),
      new RegistrationPhase(ctx),
      new InitializationPhase(ctx),
      new LivenessPhase(ctx),
    ];
    const enqueue = (nc: StoredNodeClaim): void => this.queue.add(nc.metadata.name ?? '');
    ctx.informers.nodeClaims.on({ add: enqueue, update: (_o, n) => enqueue(n) });
    const byNode = (node: Node): void => {
      const id = node.spec?.providerID;
      if (id) for (const nc of ctx.informers.nodeClaims.cache.byIndex(Indexes.providerID, id)) enqueue(nc);
    };
    ctx.informers.nodes.on({ add: byNode, update: (_o, n) => byNode(n), delete: byNode });
  }

  /** One pass over one NodeClaim. */
  async reconcile(name: string): Promise<ReconcileResult | void> {
    const cached = this.view.get(name);
    if (!cached) return;
    if (cached.metadata.deletionTimestamp) return finalizeNodeClaim(this.ctx, structuredClone(cached));
    const original = cached.metadata.finalizers?.includes(Finalizers.termination)
      ? cached
      : await this.addFinalizer(name);
    if (!original) return;
    const nc = structuredClone(original);
    let requeueAfter: number | undefined;
    for (const phase of this.phases) {
      const r = await phase.reconcile(nc);
      if (r.stop) return;
      requeueAfter = earliest(requeueAfter, r.requeueAfter);
    }
    this.setReady(nc);
    await this.write(original, nc);
    return requeueAfter === undefined ? undefined : { requeueAfter };
  }

  private async addFinalizer(name: string): Promise<StoredNodeClaim | undefined> {
    const before = this.view.get(name);
    const after = await updateWithRetry<StoredNodeClaim>({
      client: this.ctx.client,
      resource: Resources.nodeClaims,
      ref: { name },
      mutate: (fresh) => {
        if (fresh.metadata.deletionTimestamp || fresh.metadata.finalizers?.includes(Finalizers.termination))
          return undefined;
        fresh.metadata.finalizers = [...(fresh.metadata.finalizers ?? []), Finalizers.termination];
        return fresh;
      },
    }).catch((e: unknown) => {
      ignoreNotFound(e);
      return undefined;
    });
    if (before && after) this.view.wrote(name, before, after);
    return after;
  }

  private setReady(nc: StoredNodeClaim): void {
    const status = (nc.status ??= {});
    const c = status.conditions;
    const ready =
      isTrue(c, ConditionTypes.launched) &&
      isTrue(c, ConditionTypes.registered) &&
      isTrue(c, ConditionTypes.initialized);
    const notReady = [ConditionTypes.launched, ConditionTypes.registered, ConditionTypes.initialized].filter(
      (t) => !isTrue(c, t),
    );
    status.conditions = setCondition(
      c,
      ready
        ? { type: ConditionTypes.ready, status: 'True', reason: ConditionReasons.ready }
        : {
            type: ConditionTypes.ready,
            status: 'Unknown',
            reason: ConditionReasons.unhealthyDependents,
            message: `${notReady.join(', ')} not True`,
          },
      { now: this.ctx.clock.now() },
    );
  }

  private async write(original: StoredNodeClaim, nc: StoredNodeClaim): Promise<void> {
    const ref = { name: nc.metadata.name ?? '' };
    const labelsChanged = JSON.stringify(original.metadata.labels ?? {}) !== JSON.stringify(nc.metadata.labels ?? {});
    let last = original;
    const track = (after: StoredNodeClaim | void): void => {
      if (!after) return;
      this.view.wrote(ref.name, last, after);
      last = after;
    };
    if (labelsChanged) {
      track(
        await this.ctx.client
          .patch<StoredNodeClaim>(Resources.nodeClaims, ref, { metadata: { labels: nc.metadata.labels } })
          .catch(ignoreNotFound),
      );
    }
    const changed = ownedConditions.filter(
      (t) => !sameCondition(original.status?.conditions, nc.status?.conditions, t),
    );
    const fields = ownedStatusFields.filter(
      (f) => JSON.stringify(original.status?.[f]) !== JSON.stringify(nc.status?.[f]),
    );
    if (!changed.length && !fields.length) return;
    const duplicate = { providerID: undefined as string | undefined };
    const stored = await updateWithRetry<StoredNodeClaim>({
      client: this.ctx.client,
      resource: Resources.nodeClaims,
      ref,
      subresource: 'status',
      mutate: (fresh) => {
        const status = (fresh.status ??= {});
        // Never replace the instance another pass already recorded: ours is then a duplicate to terminate.
        const recorded = status.providerID;
        if (recorded && nc.status?.providerID && recorded !== nc.status.providerID) {
          duplicate.providerID = nc.status.providerID;
          return undefined;
        }
        for (const f of fields) Object.assign(status, { [f]: nc.status?.[f] });
        const others = (status.conditions ?? []).filter((c) => !changed.includes(c.type));
        status.conditions = [...others, ...(nc.status?.conditions ?? []).filter((c) => changed.includes(c.type))];
        return fresh;
      },
    }).catch(ignoreNotFound);
    track(stored);
    if (duplicate.providerID) await this.terminateDuplicate(nc, duplicate.providerID);
  }

  private async terminateDuplicate(nc: StoredNodeClaim, providerID: string): Promise<void> {
    this.ctx.log.warn(
      { controller: this.name, nodeclaim: nc.metadata.name, providerID },
      'terminating an instance launched twice for one NodeClaim',
    );
    const copy = cloudClaim(nc);
    await this.ctx.cloudProvider
      .delete({ ...copy, status: { ...copy.status, providerID } })
      .catch(ignoreNodeClaimNotFound);
  }
}

function sameCondition(
  a: readonly ConditionLike[] | undefined,
  b: readonly ConditionLike[] | undefined,
  type: string,
): boolean {
  return JSON.stringify(a?.find((c) => c.type === type)) === JSON.stringify(b?.find((c) => c.type === type));
}
