/**
 * disruption.queue: carries out commands, replacement first. Replacements are created and must reach
 * `Initialized` before the candidates are tainted `karpenter.sh/disrupted:NoSchedule` and their NodeClaims
 * deleted (termination then drains them through the eviction API). If a replacement fails — deleted, or not
 * initialized within the timeout — the command is abandoned and the candidates are un-marked and un-tainted.
 */
import { Annotations, ConditionTypes, Labels } from '../../../api/index.js';
import { rfc3339 } from '../../../clock/index.js';
import { ignoreNotFound, Resources, WorkQueue, type Reconciler, type ReconcileResult } from '../../../kube/index.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import { isTrue } from '../../conditions.js';
import type { ControllerContext } from '../../context.js';
import { EventReasons } from '../../event-reasons.js';
import { nodeClaimFor } from '../../provisioning/nodeclaim-template.js';
import { decisionOf, type Command } from '../types.js';
import { markDisruptionReason, taintDisrupted, untaintDisrupted } from './marks.js';
import { disruptionLabels } from '../../../observability/disruption-metrics.js';

/** A command being carried out. */
export interface InFlightCommand {
  id: string;
  command: Command;
  /** Names of the replacement NodeClaims created for it. */
  replacements: string[];
  /** Replacements the cache has delivered at least once (a missing one after that was deleted). */
  seen: Set<string>;
  startedAt: number;
}

/** How long replacements may take to initialize before the command is abandoned. */
const replacementTimeoutMs = 20 * 60_000;
const pollMs = 2_000;

/** The orchestration queue. */
export class OrchestrationQueue implements Reconciler {
  readonly name = 'disruption.queue';
  readonly queue: WorkQueue;
  private readonly commands = new Map<string, InFlightCommand>();
  private seq = 0;

  /** Creates the queue and wakes commands when their replacements change. */
  constructor(private readonly ctx: ControllerContext) {
    this.queue = new WorkQueue(ctx.clock);
    const wake = (nc: StoredNodeClaim): void => {
      for (const c of this.commands.values()) if (c.replacements.includes(nc.metadata.name ?? '')) this.queue.add(c.id);
    };
    ctx.informers.nodeClaims.on({ add: wake, update: (_o, nc) => wake(nc), delete: wake });
  }

  /** Nodes that commands in flight are disrupting (they count against budgets and are not candidates). */
  claimed(): Set<string> {
    return new Set([...this.commands.values()].flatMap((c) => c.command.candidates.map((x) => x.node.name)));
  }

  /** Commands in flight, for tests and logs. */
  inFlight(): InFlightCommand[] {
    return [...this.commands.values()];
  }

  /** Starts a command: marks the candidates and launches its replacements. */
  async start(command: Command): Promise<void> {
    const id = `command-${++this.seq}`;
    const cmd: InFlightCommand = { id, command, replacements: [], seen: new Set(), startedAt: this.ctx.clock.now() };
    this.commands.set(id, cmd);
    this.ctx.log.info(
      {
        controller: this.name,
        'command-id': id,
        reason: command.reason.toLowerCase(),
        decision: decisionOf(command),
        'disrupted-node-count': command.candidates.length,
        'replacement-node-count': command.replacements.length,
        'pod-count': command.candidates.reduce((n, c) => n + c.reschedulable.length, 0),
        'disrupted-nodes': command.candidates.map((c) => ({
          Node: { name: c.node.name },
          NodeClaim: { name: c.node.nodeClaim ?? '' },
          'capacity-type': c.node.labels[Labels.capacityType] ?? '',
          'instance-type': c.node.labels[Labels.instanceType] ?? '',
        })),
      },
      'disrupting node(s)',
    );
    for (const c of command.candidates)
      if (c.node.nodeClaim) await markDisruptionReason(this.ctx, c.node.nodeClaim, command.reason);
    try {
      for (const planned of command.replacements) {
        const pool = this.ctx.informers.nodePools.cache.get(planned.nodePool);
        if (!pool) throw new Error(`NodePool ${planned.nodePool} not found`);
        const made = await this.ctx.client.create<StoredNodeClaim>(Resources.nodeClaims, nodeClaimFor(pool, planned));
        const name = made.metadata.name ?? '';
        cmd.replacements.push(name);
        this.ctx.state.expectNodeClaim(name);
        this.ctx.metrics.nodeClaimsCreated
          .labels({ reason: command.reason.toLowerCase(), nodepool: planned.nodePool, min_values_relaxed: 'false' })
          .inc();
      }
    } catch (e) {
      await this.abandon(cmd, `launching a replacement failed: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (cmd.replacements.length)
      await this.publish(
        cmd,
        EventReasons.disruptionLaunching,
        `Launching NodeClaim: ${cmd.replacements.join(', ')} (${command.summary})`,
      );
    this.queue.add(id);
  }

  /** One step of one command. */
  async reconcile(id: string): Promise<ReconcileResult | void> {
    const cmd = this.commands.get(id);
    if (!cmd) return;
    const state = this.replacementsState(cmd);
    if (state.failed) return this.abandon(cmd, state.failed);
    if (!state.ready) {
      if (this.ctx.clock.now() - cmd.startedAt > replacementTimeoutMs)
        return this.abandon(cmd, `replacements not initialized after ${replacementTimeoutMs / 60_000} minutes`);
      await this.publish(
        cmd,
        EventReasons.disruptionWaitingReadiness,
        `Waiting on readiness to continue disruption: ${state.waiting.join(', ')}`,
      );
      return { requeueAfter: pollMs };
    }
    await this.terminate(cmd);
  }

  private replacementsState(cmd: InFlightCommand): { ready: boolean; failed?: string; waiting: string[] } {
    const waiting: string[] = [];
    for (const name of cmd.replacements) {
      const nc = this.ctx.informers.nodeClaims.cache.get(name);
      if (nc) cmd.seen.add(name);
      if (!nc) {
        if (cmd.seen.has(name))
          return { ready: false, failed: `replacement NodeClaim ${name} was deleted before it initialized`, waiting };
        waiting.push(name);
        continue;
      }
      if (nc.metadata.deletionTimestamp)
        return {
          ready: false,
          failed: `replacement NodeClaim ${name} is being deleted (launch or registration failed)`,
          waiting,
        };
      if (!isTrue(nc.status?.conditions, ConditionTypes.initialized)) waiting.push(name);
    }
    return { ready: waiting.length === 0, waiting };
  }

  /** Taints every candidate, then deletes their NodeClaims; any failure un-taints them all. */
  private async terminate(cmd: InFlightCommand): Promise<void> {
    const { command } = cmd;
    try {
      for (const c of command.candidates) await taintDisrupted(this.ctx, c.node.name);
      for (const c of command.candidates) {
        if (!c.node.nodeClaim) continue;
        const ref = { name: c.node.nodeClaim };
        // A repair does not wait for the drain: the pods of an unhealthy node are already lost (node.health).
        if (command.reason === 'Unhealthy')
          await this.ctx.client
            .patch(Resources.nodeClaims, ref, {
              metadata: { annotations: { [Annotations.nodeClaimTerminationTimestamp]: rfc3339(this.ctx.clock.now()) } },
            })
            .catch(ignoreNotFound);
        await this.ctx.client.delete(Resources.nodeClaims, ref).catch(ignoreNotFound);
      }
    } catch (e) {
      await this.abandon(cmd, `tainting or deleting a candidate failed: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    this.commands.delete(cmd.id);
    const decision = {
      decision: decisionOf(command),
      reason: command.reason.toLowerCase(),
      consolidation_type: command.consolidationType,
    };
    this.ctx.metrics.disruptionDecisions.inc(decision);
    for (const nodepool of new Set(command.candidates.map((c) => c.nodePool.name)))
      this.ctx.metrics.nodePoolDisruptionDecisions.inc({ nodepool, ...decision });
    for (const c of command.candidates) {
      const nodeClaim = c.node.nodeClaim ? this.ctx.informers.nodeClaims.cache.get(c.node.nodeClaim) : undefined;
      const labels = disruptionLabels(nodeClaim, command.reason.toLowerCase(), {
        ...(command.consolidationType ? { policy: c.nodePool.consolidationPolicy } : {}),
      });
      this.ctx.metrics.disrupted(
        { ...labels, nodepool: c.nodePool.name, capacity_type: c.node.labels[Labels.capacityType] ?? '' },
        c.reschedulable.length,
      );
    }
    await this.publish(cmd, EventReasons.disruptionTerminating, `Disrupting Node: ${command.summary}`);
    this.ctx.log.info(
      { controller: this.name, command: command.summary, replacements: cmd.replacements },
      'disruption command executed',
    );
  }

  /** Gives a command up: the candidates lose the taint and the DisruptionReason condition. */
  private async abandon(cmd: InFlightCommand, why: string): Promise<void> {
    this.commands.delete(cmd.id);
    this.ctx.metrics.disruptionQueueFailures.inc({
      decision: decisionOf(cmd.command),
      reason: cmd.command.reason.toLowerCase(),
      consolidation_type: cmd.command.consolidationType,
    });
    for (const c of cmd.command.candidates) {
      if (c.node.nodeClaim) await markDisruptionReason(this.ctx, c.node.nodeClaim, undefined);
      await untaintDisrupted(this.ctx, c.node.name);
    }
    await this.publish(
      cmd,
      EventReasons.disruptionBlocked,
      `Abandoned disruption (${cmd.command.summary}): ${why}`,
      'Warning',
    );
    this.ctx.log.warn({ controller: this.name, command: cmd.command.summary, why }, 'disruption command abandoned');
  }

  /**
   * One event on each candidate's Node and NodeClaim. As Karpenter, "waiting on readiness" is said once per object
   * every 2 minutes however often the command is polled, and the others once per object and message.
   */
  private async publish(
    cmd: InFlightCommand,
    reason: string,
    message: string,
    type: 'Normal' | 'Warning' = 'Normal',
  ): Promise<void> {
    const dedupeOf = (uid: string | undefined): { values: string[] } => ({
      values: reason === EventReasons.disruptionWaitingReadiness ? [uid ?? ''] : [uid ?? '', message],
    });
    for (const c of cmd.command.candidates) {
      const node = this.ctx.informers.nodes.cache.get(c.node.name);
      if (node) await this.ctx.recorder.publish(node, { type, reason, message, dedupe: dedupeOf(node.metadata.uid) });
      const nc = c.node.nodeClaim ? this.ctx.informers.nodeClaims.cache.get(c.node.nodeClaim) : undefined;
      if (nc) await this.ctx.recorder.publish(nc, { type, reason, message, dedupe: dedupeOf(nc.metadata.uid) });
    }
  }
}
