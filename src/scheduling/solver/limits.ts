/**
 * NodePool limits in a solve: what is left of them after the NodeClaims planned so far (each holds the limits at
 * the largest instance type it may still launch as, as Karpenter counts them), which instance types a new
 * NodeClaim may take, and why a pod finds none, with the numbers a fix needs.
 */
import { offeringAllowed, type InstanceTypeInfo } from '../instance-types.js';
import type { UnplacedReason } from '../model.js';
import type { PodInfo } from '../pod-info.js';
import { amount } from '../resources/amounts.js';
import { addResources, fitsIn, fromResourceList, type Resources } from '../resources/resources.js';
import type { NewBin } from './new-bin.js';
import type { Template } from './template.js';

/** What is left of `t`'s limits after existing, in-flight and planned NodeClaims (empty when unlimited). */
export function remainingOf(t: Template, bins: readonly NewBin[]): Resources {
  const remaining: Resources = { ...(t.remaining ?? {}) };
  for (const b of bins)
    if (b.template === t) for (const k in remaining) remaining[k] = (remaining[k] ?? 0) - (b.reserved[k] ?? 0);
  return remaining;
}

/** Instance types of `t` that stay within its limits given the NodeClaims planned so far. */
export function withinLimits(t: Template, bins: readonly NewBin[]): InstanceTypeInfo[] {
  if (!t.remaining) return t.instanceTypes;
  const remaining = remainingOf(t, bins);
  const keys = Object.keys(remaining);
  return t.instanceTypes.filter((it) => keys.every((k) => (it.capacity[k] ?? 0) <= (remaining[k] ?? 0)));
}

/** The pod's requests plus `t`'s DaemonSet overhead: what a new NodeClaim of `t` must hold for it. */
export function needOf(t: Template, pod: PodInfo): Resources {
  return addResources(t.daemonOverhead, pod.requests);
}

/** Whether `it` could hold the pod on a new NodeClaim (size, requirements and an allowed offering). */
function holds(it: InstanceTypeInfo, pod: PodInfo, need: Resources): boolean {
  return (
    fitsIn(need, it.allocatable) &&
    it.requirements.intersects(pod.requirements) === undefined &&
    it.offerings.some((o) => offeringAllowed(o, pod.requirements))
  );
}

/** Whether some type of `types` could hold the pod on a new NodeClaim. */
export function holdsAny(types: readonly InstanceTypeInfo[], pod: PodInfo, need: Resources): boolean {
  return types.some((it) => holds(it, pod, need));
}

/**
 * The limited resource that keeps every type holding the pod out, and the type that would need the least more of
 * it; undefined when no type of the NodePool holds the pod at all.
 */
function binding(
  fitting: readonly InstanceTypeInfo[],
  remaining: Resources,
): { resource: string; smallest: InstanceTypeInfo } | undefined {
  let fallback: { resource: string; smallest: InstanceTypeInfo } | undefined;
  for (const k of Object.keys(remaining)) {
    let smallest: InstanceTypeInfo | undefined;
    for (const it of fitting) if (!smallest || (it.capacity[k] ?? 0) < (smallest.capacity[k] ?? 0)) smallest = it;
    if (!smallest) return undefined;
    if ((smallest.capacity[k] ?? 0) > (remaining[k] ?? 0)) return { resource: k, smallest };
    // No single limit keeps them all out: name the first that keeps one out, and its smallest such type.
    if (fallback) continue;
    const over = fitting.filter((it) => (it.capacity[k] ?? 0) > (remaining[k] ?? 0));
    const least = over.reduce<InstanceTypeInfo | undefined>(
      (a, b) => (!a || (b.capacity[k] ?? 0) < (a.capacity[k] ?? 0) ? b : a),
      undefined,
    );
    if (least) fallback = { resource: k, smallest: least };
  }
  return fallback;
}

/**
 * Why no new NodeClaim of `t` can take the pod under its limits, with units: how much of the limit is in use, how
 * much the NodeClaims planned in this pass hold, what is left and what the smallest type holding the pod needs
 * ("limit cpu 12 CPU: 0 CPU in use, 12 CPU held by 3 NodeClaims planned now, 0 CPU left; the smallest instance
 * type that holds the pod (m.4x) needs 4 CPU"). Its details carry those numbers and the limit that would do.
 */
export function limitsReason(t: Template, bins: readonly NewBin[], pod: PodInfo): UnplacedReason {
  const target = `nodepool/${t.name}`;
  const limitsText = JSON.stringify(t.nodePool.limits ?? {});
  const prefix = `incompatible with nodepool "${t.name}", `;
  if (t.instanceTypes.length === 0)
    return {
      constraint: 'nodepool-limits',
      target,
      details: { limits: limitsText },
      message: `${prefix}it has no instance types to launch (is its NodeClass Ready?)`,
    };
  const remaining = remainingOf(t, bins);
  const before = t.remaining ?? {};
  const limits = fromResourceList(t.nodePool.limits);
  const planned = bins.filter((b) => b.template === t).length;
  const parts = Object.keys(remaining).map((k) => {
    const limit = limits[k] ?? 0;
    const inUse = Math.max(0, limit - (before[k] ?? 0));
    const held = Math.max(0, (before[k] ?? 0) - (remaining[k] ?? 0));
    const heldText =
      planned > 0 ? `, ${amount(k, held)} held by ${planned} NodeClaim${planned === 1 ? '' : 's'} planned now` : '';
    return `limit ${k} ${amount(k, limit)}: ${amount(k, inUse)} in use${heldText}, ${amount(k, Math.max(0, remaining[k] ?? 0))} left`;
  });
  const need = needOf(t, pod);
  const found = binding(
    t.instanceTypes.filter((it) => holds(it, pod, need)),
    remaining,
  );
  if (!found)
    return {
      constraint: 'nodepool-limits',
      target,
      details: { limits: limitsText },
      message: `${prefix}every instance type would exceed its limits (${parts.join('; ')})`,
    };
  const { resource: k, smallest } = found;
  const adds = smallest.capacity[k] ?? 0;
  const used = Math.max(0, (limits[k] ?? 0) - (remaining[k] ?? 0));
  return {
    constraint: 'nodepool-limits',
    target,
    details: {
      limits: limitsText,
      resource: k,
      limit: amount(k, limits[k] ?? 0),
      usedOrPlanned: amount(k, used),
      smallestInstanceType: smallest.name,
      adds: amount(k, adds),
      raiseTo: amount(k, used + adds),
    },
    message: `${prefix}every instance type that holds the pod would exceed its limits (${parts.join('; ')}; the smallest instance type that holds the pod (${smallest.name}) needs ${amount(k, adds)})`,
  };
}
