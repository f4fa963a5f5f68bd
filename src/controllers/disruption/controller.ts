/**
 * disruption: every 10 s, one pass over a fresh view of the cluster (decide.ts), skipped while the cluster is
 * unchanged since a pass that found nothing (pass-cache.ts). Drift commands go straight to
 * the orchestration queue; emptiness and consolidation commands wait the consolidation TTL and are carried out
 * only if they still hold (validation.ts). Every pass publishes the eligible-node and allowed-disruption gauges
 * and, for each node that could not be disrupted, a `DisruptionBlocked` event (not a candidate: do-not-disrupt,
 * PDB, budget…) or an `Unconsolidatable` one (consolidation found no cheaper way), with the cause. A decision
 * the re-validation drops is reported on each of its candidates with an `Unconsolidatable` event as well.
 */
import { ConditionTypes } from '../../api/index.js';
import { WorkQueue, type Reconciler, type ReconcileResult } from '../../kube/index.js';
import { isTrue } from '../conditions.js';
import type { ControllerContext } from '../context.js';
import { EventReasons } from '../event-reasons.js';
import type { Decision } from './decide.js';
import { DisruptionPasses } from './pass-cache.js';
import { QuietCluster } from './quiet-cluster.js';
import type { OrchestrationQueue } from './orchestration/queue.js';
import { clearStaleMarks } from './orchestration/stale-marks.js';
import type { Blocked, Command } from './types.js';
import { ConsolidationTtlMs, validate } from './validation.js';
import { buildView } from './view/build-view.js';
import { SchedulingInputCache } from '../provisioning/scheduling-input.js';

/** The single key of the disruption queue. */
export const disruptionKey = 'disruption';
/** Karpenter's polling period for disruption passes. */
export const disruptionPollMs = 10_000;
/** A blocked node's event is repeated at most this often while the cause stays the same. */
const blockedRepeatMs = 5 * 60_000;
/** Karpenter dedupes a node's `Unconsolidatable` events for 15 minutes. */
const unconsolidatableRepeatMs = 15 * 60_000;

function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The disruption controller. */
export class DisruptionController implements Reconciler {
  readonly name = 'disruption';
  readonly queue: WorkQueue;
  private pending: { command: Command; validateAt: number } | undefined;
  private readonly lastBlocked = new Map<string, { message: string; at: number }>();
  private readonly passes = new DisruptionPasses();
  private readonly quiet: QuietCluster;
  /** The instance type views its passes share (see SchedulingInputCache). */
  private readonly inputCache = new SchedulingInputCache();
  /** Called after every pass (tests observe decisions through it). */
  onPass: ((d: Decision) => void) | undefined;

  /** Creates the controller; it starts polling at once. */
  constructor(
    private readonly ctx: ControllerContext,
    private readonly orchestration: OrchestrationQueue,
  ) {
    this.queue = new WorkQueue(ctx.clock);
    this.quiet = new QuietCluster(ctx.informers);
    this.queue.add(disruptionKey);
  }

  /** Why no pass runs now, as the requeue to return; undefined when a pass should run. */
  private notNow(now: number): ReconcileResult | undefined {
    if (!this.ctx.state.synced()) return { requeueAfter: 1_000 };
    if (this.pending && now < this.pending.validateAt) return { requeueAfter: this.pending.validateAt - now };
    if (this.pending) return undefined;
    // Nothing can be a candidate before some NodeClaim is initialized: skip the (costly) view until then.
    const initialized = this.ctx.informers.nodeClaims.cache
      .list()
      .some((nc) => isTrue(nc.status?.conditions, ConditionTypes.initialized));
    if (!initialized || this.quiet.unchanged(now)) return { requeueAfter: disruptionPollMs };
    return undefined;
  }

  /** One disruption pass. */
  async reconcile(): Promise<ReconcileResult | void> {
    const now = this.ctx.clock.now();
    if (this.ctx.state.synced()) await clearStaleMarks(this.ctx, () => this.orchestration.claimed());
    const wait = this.notNow(now);
    if (wait) return wait;
    const generation = this.quiet.current();
    const view = await buildView(this.ctx, this.orchestration.claimed(), this.inputCache);
    if (this.pending) {
      const { command } = this.pending;
      this.pending = undefined;
      const v = validate(command, view);
      if (v.ok) await this.orchestration.start(v.command);
      else await this.abandoned(command, v.why);
      return { requeueAfter: disruptionPollMs };
    }
    const started = performance.now();
    const d = this.passes.run(view);
    // Unchanged since a pass that found nothing: Karpenter's "already consolidated".
    if (!d) {
      this.quiet.fruitless(view, generation, this.passes.fruitlessSince());
      return { requeueAfter: disruptionPollMs };
    }
    this.ctx.metrics.schedulingDuration.labels({ controller: this.name }).observe((performance.now() - started) / 1000);
    this.record(d);
    if (d.incomplete) {
      this.ctx.metrics.consolidationTimeouts.inc({ consolidation_type: d.incomplete.method.consolidationType ?? '' });
      this.ctx.log.info({ controller: this.name }, d.incomplete.message);
    }
    await this.reportBlocked(d.blocked, now);
    this.onPass?.(d);
    if (!d.command) {
      if (d.incomplete) this.quiet.forget();
      else this.quiet.fruitless(view, generation);
      return { requeueAfter: disruptionPollMs };
    }
    this.quiet.forget();
    this.ctx.log.info({ controller: this.name, command: d.command.summary }, 'disruption decision');
    if (d.command.reason === 'Drifted') {
      await this.orchestration.start(d.command);
      return { requeueAfter: disruptionPollMs };
    }
    this.pending = { command: d.command, validateAt: now + ConsolidationTtlMs };
    return { requeueAfter: ConsolidationTtlMs };
  }

  private record(d: Decision): void {
    for (const [reason, n] of Object.entries(d.eligible))
      this.ctx.metrics.eligibleNodes.set({ reason: reason.toLowerCase() }, n);
    for (const [reason, pools] of Object.entries(d.allowed)) {
      for (const [nodepool, a] of pools) {
        const labels = { nodepool, reason: reason.toLowerCase() };
        this.ctx.metrics.allowedDisruptions.set(labels, a.allowed);
        this.ctx.metrics.nodesConsumingBudgets.set(labels, a.consuming);
      }
    }
  }

  /** A decision the re-validation dropped: said on every candidate, so a user sees why the node stayed. */
  private async abandoned(command: Command, why: string): Promise<void> {
    this.ctx.log.info(
      { controller: this.name, command: command.summary, why },
      'abandoning disruption decision: the cluster changed',
    );
    this.ctx.metrics.failedValidations.inc(
      { consolidation_type: command.consolidationType },
      command.candidates.length,
    );
    const message = `Abandoned ${command.summary} after re-validation: ${why}`;
    for (const c of command.candidates)
      await this.publish({ node: c.node, message, reason: EventReasons.unconsolidatable });
  }

  private async reportBlocked(blocked: readonly Blocked[], now: number): Promise<void> {
    const current = new Set(blocked.map((b) => b.node.name));
    for (const name of this.lastBlocked.keys()) if (!current.has(name)) this.lastBlocked.delete(name);
    for (const b of blocked) {
      const last = this.lastBlocked.get(b.node.name);
      const repeat = b.reason === EventReasons.unconsolidatable ? unconsolidatableRepeatMs : blockedRepeatMs;
      if (last && last.message === b.message && now - last.at < repeat) continue;
      this.lastBlocked.set(b.node.name, { message: b.message, at: now });
      // Karpenter v1 publishes the cause itself, capitalized ("Pdb prevents pod evictions (PodDisruptionBudget=[…])").
      await this.publish({ ...b, message: capitalized(b.message) });
    }
  }

  /** One event on the node and one on its NodeClaim, as Karpenter does. */
  private async publish(b: Blocked): Promise<void> {
    const node = this.ctx.informers.nodes.cache.get(b.node.name);
    if (node) await this.ctx.recorder.publish(node, { type: 'Normal', reason: b.reason, message: b.message });
    const nc = b.node.nodeClaim ? this.ctx.informers.nodeClaims.cache.get(b.node.nodeClaim) : undefined;
    if (nc) await this.ctx.recorder.publish(nc, { type: 'Normal', reason: b.reason, message: b.message });
  }
}
