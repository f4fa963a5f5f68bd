/**
 * interruption: Karpenter's AWS interruption controller. It long-polls the interruption queue
 * (settings.interruptionQueue) for EC2 and AWS Health events; for each instance a message names that backs a
 * NodeClaim it records Karpenter's Event, marks a spot offering unavailable on a spot interruption warning, and
 * deletes the NodeClaim for the kinds that end the instance (spot interruption, scheduled change, stopping or
 * terminating). Before deleting a NodeClaim whose instance has notice (a spot warning, a scheduled change) it
 * stamps it with when the instance goes away. Deleting it starts the usual termination (disrupted taint, then
 * the drain) and provisioning launches capacity for the pods of the deleting node at once; with the stamp the
 * drain waits for that capacity to be initialized, inside the notice (node/termination/replacement-wait.ts). A
 * message is deleted once handled, or when it cannot be parsed; a message whose handling failed stays and comes
 * back after its visibility timeout.
 */
import { Annotations, Labels, type CapacityType, type NodeClaim } from '../../../../api/index.js';
import type { Clock } from '../../../../clock/index.js';
import {
  ignoreNotFound,
  Resources,
  WorkQueue,
  type EventRecorder,
  type KubeClient,
  type KubeObject,
  type Node,
  type Reconciler,
  type ReconcileResult,
} from '../../../../kube/index.js';
import type { Logger } from '../../../../observability/logger.js';
import type { Metrics } from '../../../../observability/metrics.js';
import type { UnavailableOfferings } from '../../cache/unavailable-offerings.js';
import { instanceIdOf } from '../../instance/provider-id.js';
import type { InterruptionQueuePort, QueueMessage } from '../../ports/index.js';
import { noticeFor, terminatingOnInterruption } from './events.js';
import { MessageKinds, parseMessage, type InterruptionMessage, type MessageKind } from './messages.js';
import { disruptionLabels } from '../../../../observability/disruption-metrics.js';

/** The one key of the controller's queue: it is a singleton poll loop. */
export const InterruptionKey = 'interruption';

/** Kinds whose instance is going away: the NodeClaim is deleted (Karpenter's CordonAndDrain action). */
const cordonAndDrain: ReadonlySet<MessageKind> = new Set<MessageKind>([
  MessageKinds.spotInterruption,
  MessageKinds.scheduledChange,
  MessageKinds.instanceStopped,
  MessageKinds.instanceTerminated,
]);

/** EC2's notice before it reclaims a spot instance. */
export const SpotInterruptionNoticeMs = 2 * 60_000;

/**
 * The longest a scheduled change's drain waits for a replacement, however far off the change: Karpenter's
 * registration timeout, past which a launch counts as failed anyway. Waiting longer would only keep the node
 * (and its NodePool's disruption budget) held.
 */
export const ScheduledChangeWaitMs = 15 * 60_000;

/** State-change kinds: the instance is already stopping or terminating. */
const stateChangeKinds: ReadonlySet<MessageKind> = new Set<MessageKind>([
  MessageKinds.instanceStopped,
  MessageKinds.instanceTerminated,
]);

/** What the controller is given. */
export interface InterruptionControllerOptions {
  client: KubeClient;
  clock: Clock;
  queue: InterruptionQueuePort;
  recorder: EventRecorder;
  metrics: Metrics;
  log: Logger;
  unavailableOfferings: UnavailableOfferings;
  /** Caches to read NodeClaims and Nodes from (the playground's shared informers); default: list them per batch. */
  caches?: InterruptionCaches;
}

/** Read access to cached NodeClaims and Nodes. */
export interface InterruptionCaches {
  nodeClaims(): Array<NodeClaim & KubeObject>;
  nodes(): Node[];
}

type StoredNodeClaim = NodeClaim & KubeObject;

interface Targets {
  nodeClaims: Map<string, StoredNodeClaim>;
  nodes: Map<string, Node>;
}

function byInstanceId<T>(items: T[], providerID: (t: T) => string | undefined): Map<string, T> {
  const out = new Map<string, T>();
  for (const item of items) {
    const id = instanceIdOf(providerID(item) ?? '');
    if (id) out.set(id, item);
  }
  return out;
}

/**
 * When a message's instance goes away, for the kinds that give notice: a spot warning two minutes after its
 * time, a scheduled change at its start (at most ScheduledChangeWaitMs from now). A stopping or terminating
 * instance is going already: undefined, its node drains at once.
 */
export function instanceEnd(msg: InterruptionMessage, now: number): number | undefined {
  if (msg.kind === MessageKinds.spotInterruption) return (msg.time ?? now) + SpotInterruptionNoticeMs;
  if (msg.kind !== MessageKinds.scheduledChange) return undefined;
  const cap = now + ScheduledChangeWaitMs;
  return Math.min(msg.startTime ?? (msg.time ?? now) + SpotInterruptionNoticeMs, cap);
}

/** The interruption controller (see the module comment). */
export class InterruptionController implements Reconciler {
  readonly name = 'interruption';
  readonly queue: WorkQueue;
  private readonly log: Logger;
  private abort = new AbortController();

  /** Creates the controller; its poll loop starts with the operator's workers. */
  constructor(private readonly o: InterruptionControllerOptions) {
    this.queue = new WorkQueue(o.clock);
    this.queue.add(InterruptionKey);
    this.log = o.log.child({ controller: this.name, queue: o.queue.name });
    this.log.debug('watching interruption queue');
  }

  /** Ends the poll in flight, so shutting down does not wait out a 20-second long poll. */
  stop(): void {
    this.abort.abort();
  }

  /** One poll: handles and deletes what it received, then polls again at once. */
  async reconcile(): Promise<ReconcileResult> {
    if (this.abort.signal.aborted) return {};
    const received = await this.o.queue.receive(this.abort.signal);
    if (received.length === 0) return { requeueAfter: 0 };
    const targets = await this.targets();
    const failures = (await Promise.all(received.map((m) => this.handle(m, targets)))).filter(
      (e): e is Error => e !== undefined,
    );
    if (failures.length)
      throw new Error(`handling interruption messages: ${failures.map((e) => e.message).join('; ')}`);
    return { requeueAfter: 0 };
  }

  private async targets(): Promise<Targets> {
    const caches = this.o.caches;
    const [claims, nodes] = caches
      ? [caches.nodeClaims(), caches.nodes()]
      : await Promise.all([
          this.o.client.list<StoredNodeClaim>(Resources.nodeClaims).then((l) => l.items),
          this.o.client.list<Node>(Resources.nodes).then((l) => l.items),
        ]);
    return {
      nodeClaims: byInstanceId(claims, (nc) => nc.status?.providerID),
      nodes: byInstanceId(nodes, (n) => n.spec?.providerID),
    };
  }

  /** Handles one message; returns the error that keeps it on the queue, if any. */
  private async handle(raw: QueueMessage, targets: Targets): Promise<Error | undefined> {
    const parsed = parseMessage(raw.body);
    try {
      if (!parsed.ok) {
        // Karpenter deletes what it cannot parse: it would fail the same way every time it came back.
        this.log.error({ messageId: raw.messageId, error: parsed.reason }, 'failed parsing interruption message');
      } else {
        await this.act(parsed.message, targets);
      }
      await this.o.queue.delete(raw);
      this.o.metrics.interruptionDeletedMessages.inc();
      return undefined;
    } catch (e: unknown) {
      return e instanceof Error ? e : new Error(String(e));
    }
  }

  private async act(msg: InterruptionMessage, targets: Targets): Promise<void> {
    this.o.metrics.interruptionReceivedMessages.inc({ message_type: msg.kind });
    if (msg.kind === MessageKinds.noOp) return;
    for (const id of msg.instanceIds) {
      const nodeClaim = targets.nodeClaims.get(id);
      if (nodeClaim) await this.actOn(msg, nodeClaim, targets.nodes.get(id));
    }
    if (msg.time !== undefined)
      this.o.metrics.interruptionMessageQueueDuration.observe(Math.max(0, this.o.clock.now() - msg.time) / 1000);
  }

  private async actOn(msg: InterruptionMessage, nodeClaim: StoredNodeClaim, node: Node | undefined): Promise<void> {
    const action = cordonAndDrain.has(msg.kind) ? 'CordonAndDrain' : 'NoAction';
    const log = this.log.child({
      messageKind: msg.kind,
      NodeClaim: { name: nodeClaim.metadata.name },
      action,
      ...(node ? { Node: { name: node.metadata.name } } : {}),
    });
    // A deleting NodeClaim's instance stops because it is being terminated (most often by Tenon itself): Karpenter
    // warns "Instance is terminating" on every node it consolidates; Tenon keeps that warning for real surprises.
    if (nodeClaim.metadata.deletionTimestamp && stateChangeKinds.has(msg.kind)) return;
    await this.publish(nodeClaim, node, (o) => noticeFor(msg, o));
    const labels = nodeClaim.metadata.labels ?? {};
    if (msg.kind === MessageKinds.spotInterruption) {
      const type = labels[Labels.instanceType];
      const zone = labels[Labels.zone];
      // The pool that reclaimed this instance is short of capacity: its replacement should come from another.
      if (type && zone) this.o.unavailableOfferings.mark(type, zone, 'spot' satisfies CapacityType);
    }
    if (action === 'NoAction' || nodeClaim.metadata.deletionTimestamp) return;
    await this.stampTerminationTime(nodeClaim, instanceEnd(msg, this.o.clock.now()));
    await this.o.client.delete(Resources.nodeClaims, { name: nodeClaim.metadata.name ?? '' }).catch(ignoreNotFound);
    log.info('initiating delete from interruption message');
    await this.publish(nodeClaim, node, (o) => terminatingOnInterruption(o, o === node ? 'Node' : 'NodeClaim'));
    this.o.metrics.disrupted(disruptionLabels(nodeClaim, msg.kind));
  }

  /** Records when the instance goes away on the NodeClaim, so its drain can wait for a replacement until then. */
  private async stampTerminationTime(nodeClaim: StoredNodeClaim, at: number | undefined): Promise<void> {
    if (at === undefined) return;
    const annotations = { [Annotations.instanceTerminationTime]: new Date(at).toISOString() };
    await this.o.client
      .patch(Resources.nodeClaims, { name: nodeClaim.metadata.name ?? '' }, { metadata: { annotations } })
      .catch(ignoreNotFound);
  }

  private async publish(
    nodeClaim: StoredNodeClaim,
    node: Node | undefined,
    spec: (o: KubeObject) => ReturnType<typeof noticeFor>,
  ): Promise<void> {
    for (const o of node ? [nodeClaim, node] : [nodeClaim]) {
      const e = spec(o);
      if (e) await this.o.recorder.publish(o, e);
    }
  }
}
