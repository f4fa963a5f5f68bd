/**
 * Taints and tolerations with core/v1 semantics, plus the S1 rule: on a node that is not yet initialized the
 * known ephemeral taints (and the NodePool's startup taints) are expected to go away and are ignored.
 */
import { isKnownEphemeralTaintKey, type Taint, type Toleration } from '../api/index.js';

/** True when `toleration` tolerates `taint` (core/v1 ToleratesTaint). */
export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key === undefined || toleration.key === '') {
    return toleration.operator === 'Exists';
  }
  if (toleration.key !== taint.key) return false;
  if (toleration.operator === 'Exists') return true;
  return (toleration.value ?? '') === (taint.value ?? '');
}

/**
 * The first taint of `taints` the tolerations do not tolerate, or undefined. PreferNoSchedule taints count, as in
 * Karpenter, until preference relaxation adds a toleration for them.
 */
export function untoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[]): Taint | undefined {
  for (const t of taints) {
    if (!tolerations.some((tol) => tolerates(tol, t))) return t;
  }
  return undefined;
}

/**
 * The first NoSchedule or NoExecute taint of `taints` the tolerations do not tolerate, or undefined: what excludes a
 * node from a spread constraint with nodeTaintsPolicy Honor (kube-scheduler's DoNotScheduleTaintsFilterFunc).
 */
export function untoleratedDoNotSchedule(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): Taint | undefined {
  for (const t of taints) {
    if (t.effect === 'PreferNoSchedule') continue;
    if (!tolerations.some((tol) => tolerates(tol, t))) return t;
  }
  return undefined;
}

/** Taints that will stay on a node: drops ephemeral and startup taints while it is not initialized. */
export function effectiveTaints(
  taints: readonly Taint[],
  opts: { initialized: boolean; startupTaints?: readonly Taint[] },
): Taint[] {
  if (opts.initialized) return [...taints];
  const startup = opts.startupTaints ?? [];
  return taints.filter(
    (t) =>
      !isKnownEphemeralTaintKey(t.key) &&
      !startup.some((s) => s.key === t.key && s.effect === t.effect && (s.value ?? '') === (t.value ?? '')),
  );
}

/** `key=value:Effect`. */
export function formatTaint(t: Taint): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
}
