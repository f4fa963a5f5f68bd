/** How many pods a disrupted node had to re-home, for `karpenter_pods_disruption_initiated_total`. */
import type { ClusterState } from '../../state/cluster-state.js';
import { isReschedulable } from '../provisioning/provisionable.js';

/** The reschedulable pods bound to `nodeName` (0 when the NodeClaim never had a node). */
export function reschedulableOn(state: ClusterState, nodeName: string | undefined): number {
  return nodeName ? state.podsOn(nodeName).filter(isReschedulable).length : 0;
}
