/**
 * CapacityBuffer (autoscaling.x-k8s.io/v1beta1): spare capacity kept for pods that have not arrived. A buffer
 * resolves, as the cluster-autoscaler's buffer controller does, to a pod shape (its `podTemplateRef`, or the pods
 * of the object its `scalableRef` names) and a number of units, which capacitybuffer.status writes to its status;
 * every provisioning pass then turns a ready buffer into that many virtual pods, after the real ones: they are
 * priced into the solve like pods, launch nodes when they fit nowhere, and since they never bind, real pods take
 * their room at once. Consolidation counts them as pending pods, so it keeps the room. Pure: the controllers feed it.
 */
import { isQuantity, scaledQuantity, type CapacityBuffer, type PodSpec } from '../../api/index.js';
import type { Pod } from '../../kube/index.js';

/** A pod shape: the labels and spec virtual pods are made of. */
export interface PodShape {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

/** What a buffer's reference resolved to: a pod shape and, for a scalable object, its replicas. */
export type BufferSource = { ok: true; template: PodShape; scalableReplicas?: number } | { ok: false; message: string };

/** A resolved buffer: how many units of which shape, or why it cannot be provisioned (upstream's condition). */
export type ResolvedBuffer = { ok: true; replicas: number; template: PodShape } | { ok: false; message: string };

/** The quantity in exact milli-units (0 when absent, undefined when malformed), by the API's one quantity parser. */
function milliOf(q: string | number | undefined): bigint | undefined {
  if (q === undefined) return 0n;
  return isQuantity(q) ? scaledQuantity(q, 3) : undefined;
}

/**
 * The units a buffer's limits allow: for each limited resource the pods request, the whole units whose requests
 * fit it; undefined when the limits name no resource the pods request (the autoscaler cannot compute a count).
 */
export function unitsWithinLimits(
  limits: Record<string, string | number> | undefined,
  perUnit: Record<string, string>,
): number | undefined {
  let units: number | undefined;
  for (const [resource, limit] of Object.entries(limits ?? {})) {
    const [each, cap] = [milliOf(perUnit[resource]), milliOf(limit)];
    if (each && each > 0n && cap !== undefined) units = Math.min(units ?? Number.POSITIVE_INFINITY, Number(cap / each));
  }
  return units;
}

function requestsOf(spec: PodSpec): Record<string, string> {
  // Summed exactly: 100m + 200m is 300m, not 0.30000000000000004 (which would fit 9 units in 3 CPU, not 10).
  const out: Record<string, bigint> = {};
  for (const c of spec.containers)
    for (const [k, v] of Object.entries(c.resources?.requests ?? {})) out[k] = (out[k] ?? 0n) + (milliOf(v) ?? 0n);
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, `${v}m`]));
}

/**
 * The count before limits, as the autoscaler's translators compute it: a pod template buffer takes `replicas`
 * (at least 1, as upstream); a scalable buffer takes `percentage` of the object's replicas rounded down and
 * `replicas`, the smaller when both are set.
 */
function wantedUnits(spec: CapacityBuffer['spec'], scalableReplicas: number | undefined): number | undefined {
  if (spec.podTemplateRef) return spec.replicas === undefined ? undefined : Math.max(1, spec.replicas);
  const byPercent =
    spec.percentage !== undefined && scalableReplicas !== undefined
      ? Math.max(0, Math.floor((spec.percentage * scalableReplicas) / 100))
      : undefined;
  if (byPercent !== undefined && spec.replicas !== undefined) return Math.min(byPercent, spec.replicas);
  return byPercent ?? spec.replicas;
}

/** Resolves a buffer against what its reference names: the number of units and their shape, or why not. */
export function resolveBuffer(buffer: CapacityBuffer, source: BufferSource): ResolvedBuffer {
  if (!source.ok) return source;
  const name = buffer.metadata?.name ?? '';
  const spec = buffer.spec;
  let replicas = wantedUnits(spec, source.scalableReplicas);
  if (spec.limits) {
    const units = unitsWithinLimits(spec.limits, requestsOf(source.template.spec));
    if (units === undefined)
      return {
        ok: false,
        message: `Couldn't calculate number of pods for buffer ${name} based on provided resource limits`,
      };
    replicas = replicas === undefined ? units : Math.min(replicas, units);
  }
  if (replicas === undefined)
    return {
      ok: false,
      message: spec.podTemplateRef
        ? `Failed to translate buffer ${name}, Replicas should have a value when PodTemplateRef is set`
        : `Couldn't get number of replicas for buffer ${name}, replicas and percentage are not defined`,
    };
  return { ok: true, replicas, template: source.template };
}

/** The virtual pods of a buffer: pending, never bound, named after the buffer. */
export function virtualPods(buffer: CapacityBuffer, unit: { replicas: number; template: PodShape }): Pod[] {
  const namespace = buffer.metadata?.namespace ?? 'default';
  const name = buffer.metadata?.name ?? '';
  return Array.from({ length: unit.replicas }, (_, i) => ({
    metadata: { name: `capacitybuffer-${name}-${i}`, namespace, labels: { ...unit.template.metadata?.labels } },
    spec: { ...unit.template.spec, nodeName: undefined },
    status: { phase: 'Pending' as const },
  }));
}
