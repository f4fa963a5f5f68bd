/**
 * The labels Karpenter puts on each disrupted NodeClaim (`karpenter_nodeclaims_disrupted_total`,
 * `karpenter_pods_disruption_initiated_total`): why, its NodePool and capacity type, the NodePool's
 * consolidation policy when consolidation chose it, and how its pods will be terminated.
 */
import { Labels, type ConsolidationPolicy } from '../api/index.js';
import { parseDuration } from '../settings/duration.js';

/** The labels of one disrupted NodeClaim. */
export interface DisruptionLabels {
  reason: string;
  nodepool: string;
  capacity_type: string;
  /** The NodePool's consolidationPolicy in snake case for a consolidation, else empty. */
  consolidation_policy: string;
  /** `graceful` (no terminationGracePeriod), `eventual` (one above zero) or `forceful` (zero, or a repair). */
  termination_mode: TerminationMode;
}

/** How a disrupted NodeClaim's pods are terminated. */
export type TerminationMode = 'graceful' | 'eventual' | 'forceful';

/** The part of a NodeClaim the labels are read from. */
export interface DisruptedNodeClaim {
  metadata: { labels?: Record<string, string> };
  spec?: { terminationGracePeriod?: string };
}

/** Karpenter's termination mode of a NodeClaim, from its terminationGracePeriod. */
export function terminationModeOf(nodeClaim: DisruptedNodeClaim | undefined): TerminationMode {
  const tgp = nodeClaim?.spec?.terminationGracePeriod;
  if (tgp === undefined) return 'graceful';
  return (parseDuration(tgp) ?? 0) <= 0 ? 'forceful' : 'eventual';
}

/** `WhenEmptyOrUnderutilized` as `when_empty_or_underutilized`, as Karpenter's label value. */
export function snakeCase(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** The labels of `nodeClaim` disrupted for `reason` (and by consolidation under `policy`, when it was). */
export function disruptionLabels(
  nodeClaim: DisruptedNodeClaim | undefined,
  reason: string,
  o: { policy?: ConsolidationPolicy; mode?: TerminationMode } = {},
): DisruptionLabels {
  const labels = nodeClaim?.metadata.labels ?? {};
  return {
    reason,
    nodepool: labels[Labels.nodePool] ?? '',
    capacity_type: labels[Labels.capacityType] ?? '',
    consolidation_policy: o.policy ? snakeCase(o.policy) : '',
    termination_mode: o.mode ?? terminationModeOf(nodeClaim),
  };
}
