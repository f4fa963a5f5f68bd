/**
 * The wait before an interrupted node is drained: an interruption (a spot warning, a scheduled change) stamps
 * the NodeClaim with the time its instance goes away (`tenon.sh/instance-termination-time`). Until then
 * provisioning has already launched capacity for the node's pods, and the pods keep serving where they are
 * while it comes up: the drain starts once every pod that must move has somewhere initialized to go (the
 * replacement, or room on another node), once a replacement launch fails, or at the latest when the pods would
 * no longer get their termination grace before the instance ends, whichever comes first.
 */
import { Annotations, ConditionTypes, Labels } from '../../../api/index.js';
import { nodeReadyCondition, type Node, type Pod } from '../../../kube/index.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import { getCondition } from '../../conditions.js';
import { isReschedulable } from '../../provisioning/provisionable.js';
import { drainTiers } from './drain-order.js';

/**
 * Slack kept between the end of the last pod's grace and the instance's end. It covers what lies between the
 * decision and a pod receiving SIGTERM (the 1-second re-check, the eviction call, the kubelet's watch) and the
 * event's own time, which EventBridge truncates to the second; a few seconds each, so 10 s in all.
 */
export const DrainMarginMs = 10_000;

/** Kubernetes' default terminationGracePeriodSeconds. */
const defaultGraceSeconds = 30;

/** Why the drain goes ahead (or `not-interrupted`: nothing to wait for). */
export type DrainReason = 'not-interrupted' | 'replaced' | 'launch-failed' | 'deadline' | 'nothing-to-move';

/** The outcome of one check: wait (check again no later than `until`), or drain now; `first`: the first such answer. */
export type WaitOutcome =
  { wait: true; until: number; first: boolean } | { wait: false; why: DrainReason; first: boolean };

/** What the wait reads from cluster state. */
export interface ReplacementWorld {
  /** The target (`node/<name>` or `nodeclaim/<name>`) provisioning nominated the pod to, if any. */
  nominationOf(pod: Pod): string | undefined;
  nodeClaim(name: string): StoredNodeClaim | undefined;
  node(name: string): Node | undefined;
  /** Whether a Node is managed by a NodeClaim (its readiness is then the NodeClaim's initialization). */
  managed(node: Node): boolean;
}

/** When an interrupted NodeClaim's instance goes away, if an interruption stamped it. */
export function instanceTerminationTime(nc: StoredNodeClaim | undefined): number | undefined {
  const at = Date.parse(nc?.metadata.annotations?.[Annotations.instanceTerminationTime] ?? '');
  return Number.isFinite(at) ? at : undefined;
}

function graceMs(pod: Pod): number {
  return (pod.spec.terminationGracePeriodSeconds ?? defaultGraceSeconds) * 1000;
}

/**
 * The latest the drain may start so that every pod still gets its grace before `endsAt`: the drain goes tier
 * by tier (drain-order.ts), each tier taking up to its longest grace, plus DrainMarginMs.
 */
export function drainDeadline(endsAt: number, pods: readonly Pod[]): number {
  const tiers = drainTiers(pods).filter((t) => t.length > 0);
  const grace = tiers.reduce((sum, t) => sum + Math.max(...t.map(graceMs)), 0);
  return endsAt - grace - DrainMarginMs;
}

type Placement = 'ready' | 'waiting' | 'failed';

interface NodeWait {
  /** NodeClaims the pods were nominated to that the cache held: one that then disappears failed to launch. */
  seen: Set<string>;
  released?: DrainReason;
}

/** One check: the node, its NodeClaim, its drainable pods, and the time. */
export interface WaitCheck {
  node: string;
  nodeClaim: StoredNodeClaim | undefined;
  pods: readonly Pod[];
  now: number;
}

/** The per-node waits of the termination controller (see the module comment). */
export class ReplacementWaits {
  private readonly byNode = new Map<string, NodeWait>();

  /** Decides whether the drain of a node waits. Once it goes ahead, it stays so. */
  check({ node, nodeClaim, pods, now }: WaitCheck, world: ReplacementWorld): WaitOutcome {
    const endsAt = instanceTerminationTime(nodeClaim);
    if (endsAt === undefined) return { wait: false, why: 'not-interrupted', first: false };
    const known = this.byNode.get(node);
    if (known?.released) return { wait: false, why: known.released, first: false };
    const state: NodeWait = known ?? { seen: new Set() };
    this.byNode.set(node, state);
    const until = drainDeadline(endsAt, pods);
    const moving = pods.filter(isReschedulable);
    const placement = now >= until || moving.length === 0 ? undefined : placementOf(moving, state.seen, world);
    if (placement === 'waiting') return { wait: true, until, first: known === undefined };
    const why: DrainReason =
      placement === undefined
        ? now >= until
          ? 'deadline'
          : 'nothing-to-move'
        : placement === 'ready'
          ? 'replaced'
          : 'launch-failed';
    state.released = why;
    return { wait: false, why, first: true };
  }

  /** Drops what is kept for a node that is gone. */
  forget(node: string): void {
    this.byNode.delete(node);
  }
}

function placementOf(pods: readonly Pod[], seen: Set<string>, world: ReplacementWorld): Placement {
  let all: Placement = 'ready';
  for (const pod of pods) {
    const p = podPlacement(world.nominationOf(pod), seen, world);
    if (p === 'failed') return 'failed';
    if (p === 'waiting') all = 'waiting';
  }
  return all;
}

function podPlacement(target: string | undefined, seen: Set<string>, world: ReplacementWorld): Placement {
  const [kind, name = ''] = target?.split('/') ?? [];
  if (kind === 'node') return nodePlacement(world.node(name), world);
  return kind === 'nodeclaim' ? nodeClaimPlacement(name, seen, world) : 'waiting';
}

function nodePlacement(node: Node | undefined, world: ReplacementWorld): Placement {
  return node && !node.metadata.deletionTimestamp && nodeInitialized(node, world) ? 'ready' : 'waiting';
}

function nodeClaimPlacement(name: string, seen: Set<string>, world: ReplacementWorld): Placement {
  const nc = world.nodeClaim(name);
  // A NodeClaim nominated right after its create may not be cached yet; only one seen before can have gone.
  if (!nc) return seen.has(name) ? 'failed' : 'waiting';
  seen.add(name);
  const conditions = nc.status?.conditions;
  if (nc.metadata.deletionTimestamp || getCondition(conditions, ConditionTypes.launched)?.status === 'False')
    return 'failed';
  return getCondition(conditions, ConditionTypes.initialized)?.status === 'True' ? 'ready' : 'waiting';
}

function nodeInitialized(node: Node, world: ReplacementWorld): boolean {
  if (world.managed(node)) return node.metadata.labels?.[Labels.initialized] === 'true';
  return nodeReadyCondition(node)?.status === 'True';
}
