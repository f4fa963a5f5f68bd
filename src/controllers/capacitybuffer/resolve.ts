/**
 * CapacityBuffer (autoscaling.x-k8s.io/v1beta1): spare capacity kept for pods that have not arrived. A buffer
 * resolves to a number of units shaped like a pod (the pods of the object its scalableRef names) and becomes
 * that many virtual pods in every provisioning pass, after the real ones: they are priced into the solve like
 * pods, launch nodes when they fit nowhere, and since they never bind, real pods take their room at once.
 * Consolidation counts them as pending pods, so it keeps the room. Pure: the controllers feed it.
 */
import { exactQuantity, type CapacityBuffer, ConditionReasons } from '../../api/index.js';
import type { Pod } from '../../kube/index.js';
import type { Scalable } from '../../state/informers.js';

/** A resolved buffer: how many units of which shape, or why it cannot be provisioned. */
export type ResolvedBuffer =
  | { ok: true; replicas: number; template: Scalable['spec']['template'] }
  | { ok: false; reason: string; message: string };

/** The quantity in units (0 when absent, NaN when malformed), read by the API's one quantity parser. */
function amountOf(q: string | number | undefined): number {
  if (q === undefined) return 0;
  const e = exactQuantity(q);
  return e ? Number(e.num) / 10 ** e.scale : Number.NaN;
}

/** The units a buffer's limits allow: for each limited resource, the whole units whose requests fit it. */
export function unitsWithinLimits(
  limits: Record<string, string | number> | undefined,
  perUnit: Record<string, string>,
): number {
  let units = Number.POSITIVE_INFINITY;
  for (const [resource, limit] of Object.entries(limits ?? {})) {
    const each = amountOf(perUnit[resource]);
    if (each > 0) units = Math.min(units, Math.floor(amountOf(limit) / each));
  }
  return units;
}

function requestsOf(spec: Pod['spec']): Record<string, string> {
  const out: Record<string, number> = {};
  for (const c of spec.containers)
    for (const [k, v] of Object.entries(c.resources?.requests ?? {})) out[k] = (out[k] ?? 0) + amountOf(v);
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, String(v)]));
}

/**
 * Resolves a buffer against its scalable object: `replicas` units if set, else `percentage` of the object's
 * replicas (rounded up), then lowered to fit `limits`.
 */
export function resolveBuffer(buffer: CapacityBuffer, scalable: Scalable | undefined): ResolvedBuffer {
  const spec = buffer.spec;
  if (spec.podTemplateRef)
    return {
      ok: false,
      reason: ConditionReasons.podTemplateNotSupported,
      message: 'podTemplateRef is not supported yet; use scalableRef',
    };
  const ref = spec.scalableRef;
  if (!ref)
    return {
      ok: false,
      reason: ConditionReasons.noPodShape,
      message: 'set scalableRef (with replicas, percentage or limits)',
    };
  if (!scalable)
    return {
      ok: false,
      reason: ConditionReasons.scalableNotFound,
      message: `${ref.kind} ${ref.name} not found in namespace ${buffer.metadata?.namespace ?? 'default'}`,
    };
  const template = scalable.spec.template;
  const byPercent =
    spec.percentage !== undefined ? Math.ceil(((scalable.spec.replicas ?? 1) * spec.percentage) / 100) : undefined;
  const wanted = spec.replicas ?? byPercent ?? (spec.limits ? Number.POSITIVE_INFINITY : 0);
  const replicas = Math.min(wanted, unitsWithinLimits(spec.limits, requestsOf(template.spec)));
  if (!Number.isFinite(replicas))
    return { ok: false, reason: ConditionReasons.unbounded, message: 'limits name no resource the pods request' };
  return { ok: true, replicas, template };
}

/** The virtual pods of a resolved buffer: pending, never bound, named after the buffer. */
export function virtualPods(buffer: CapacityBuffer, resolved: Extract<ResolvedBuffer, { ok: true }>): Pod[] {
  const namespace = buffer.metadata?.namespace ?? 'default';
  const name = buffer.metadata?.name ?? '';
  return Array.from({ length: resolved.replicas }, (_, i) => ({
    metadata: { name: `capacitybuffer-${name}-${i}`, namespace, labels: { ...resolved.template.metadata?.labels } },
    spec: { ...resolved.template.spec, nodeName: undefined },
    status: { phase: 'Pending' as const },
  }));
}
