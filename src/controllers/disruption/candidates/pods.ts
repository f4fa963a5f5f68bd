/** Pod facts disruption needs: which pods must move, which forbid disruption, and what evicting them costs. */
import { Annotations } from '../../../api/index.js';
import type * as sched from '../../../scheduling/index.js';

/** `namespace/name` of a pod. */
export function podKeyOf(p: sched.Pod): string {
  return [p.metadata.namespace ?? 'default', p.metadata.name].join('/');
}

function ownedBy(p: sched.Pod, kind: string): boolean {
  return p.metadata.ownerReferences?.some((o) => o.kind === kind) ?? false;
}

/**
 * Pods that must be re-homed when their node goes: not DaemonSet pods (their DaemonSet follows the nodes) and
 * not static pods' mirrors (owned by the Node). The view holds only running, non-terminating pods.
 */
export function reschedulablePods(pods: readonly sched.Pod[] | undefined): sched.Pod[] {
  return (pods ?? []).filter((p) => !ownedBy(p, 'DaemonSet') && !ownedBy(p, 'Node'));
}

/** Whether a pod carries `karpenter.sh/do-not-disrupt: "true"`. */
export function podDoNotDisrupt(p: sched.Pod): boolean {
  return p.metadata.annotations?.[Annotations.doNotDisrupt] === 'true';
}

const deletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';

/**
 * Karpenter's eviction cost of one pod: 1, plus its pod-deletion-cost and priority scaled down so that they
 * order pods without dominating the count, clamped to [-10, 10].
 */
export function evictionCost(p: sched.Pod): number {
  let cost = 1;
  const deletion = Number(p.metadata.annotations?.[deletionCostAnnotation] ?? '');
  if (Number.isFinite(deletion)) cost += deletion / 2 ** 27;
  if (p.spec.priority !== undefined) cost += p.spec.priority / 2 ** 25;
  return Math.min(10, Math.max(-10, cost));
}

/** Karpenter's LifetimeRemaining: the fraction of expireAfter still ahead (1 when the node never expires). */
export function lifetimeRemaining(args: { now: number; createdAt?: number; expireAfterMs?: number }): number {
  if (args.expireAfterMs === undefined || args.createdAt === undefined || args.expireAfterMs <= 0) return 1;
  const left = (args.expireAfterMs - (args.now - args.createdAt)) / args.expireAfterMs;
  return Math.min(1, Math.max(0, left));
}
