/**
 * Karpenter's capacity reservation controllers (`capacityreservation.capacitytype` and `.expiration`) as one pass a
 * minute over the reserved NodeClaims: one whose instance is no longer in its reservation (the reservation was
 * cancelled or ended, or the class no longer selects it) is an on-demand node again — `karpenter.sh/capacity-type`
 * becomes `on-demand` and the reservation labels go, on the NodeClaim and its Node —; one in a capacity block that is
 * expiring is deleted, so it drains before EC2 reclaims the instance.
 */
import { Labels, type NodeClaim } from '../../../../api/index.js';
import type { Clock } from '../../../../clock/index.js';
import {
  ignoreNotFound,
  Resources,
  WorkQueue,
  type EventRecorder,
  type KubeClient,
  type KubeObject,
  type Reconciler,
  type ReconcileResult,
} from '../../../../kube/index.js';
import { NodeClaimNotFoundError, type NodeClaim as CloudNodeClaim } from '../../../../cloudprovider/index.js';

/** Event reasons of the capacity reservation controller. */
export const CapacityReservationEventReasons = {
  expiring: 'CapacityReservationExpiring',
} as const;

/** The controller's single work item. */
export const CapacityReservationKey = 'capacityreservation';

/** How often reserved NodeClaims are looked at (Karpenter's controllers run every minute). */
export const CapacityReservationPeriodMs = 60_000;

/** The labels a reserved node carries beyond its capacity type. */
const reservationLabels = [
  Labels.capacityReservationId,
  Labels.capacityReservationType,
  Labels.capacityReservationInterruptible,
] as const;

type StoredNodeClaim = NodeClaim & KubeObject;

/** What to do with a reserved NodeClaim. */
export type ReservationVerdict = 'keep' | 'on-demand' | 'expiring';

/**
 * The verdict for a reserved NodeClaim, from what the cloud provider reads of its instance now and the state of its
 * reservation in the class's status.
 */
export function reservationVerdict(
  nodeClaim: NodeClaim,
  cloud: CloudNodeClaim,
  reservationState: string | undefined,
): ReservationVerdict {
  if (cloud.metadata.labels?.[Labels.capacityType] !== 'reserved') return 'on-demand';
  const block = nodeClaim.metadata?.labels?.[Labels.capacityReservationType] === 'capacity-block';
  return block && reservationState === 'expiring' ? 'expiring' : 'keep';
}

/** What the controller needs. */
export interface CapacityReservationControllerOptions {
  client: KubeClient;
  clock: Clock;
  recorder: EventRecorder;
  /** The cloud provider's view of an instance (NodeClaimNotFoundError when it is gone). */
  get: (providerID: string) => Promise<CloudNodeClaim>;
  /** The state (`active`, `expiring`) of a reservation in the status of the class, if it lists it. */
  reservationState: (nodeClassName: string, reservationId: string) => string | undefined;
}

/** The capacity reservation controller. */
export class CapacityReservationController implements Reconciler {
  readonly name = 'capacityreservation';
  readonly queue: WorkQueue;

  constructor(private readonly o: CapacityReservationControllerOptions) {
    this.queue = new WorkQueue(o.clock);
    this.queue.add(CapacityReservationKey);
  }

  /** One pass over the reserved NodeClaims; runs again a minute later. */
  async reconcile(): Promise<ReconcileResult> {
    const claims = await this.o.client.list<StoredNodeClaim>(Resources.nodeClaims, {
      labelSelector: `${Labels.capacityType}=reserved`,
    });
    for (const nc of claims.items) {
      const providerID = nc.status?.providerID;
      if (nc.metadata.deletionTimestamp || !providerID) continue;
      const cloud = await this.o.get(providerID).catch((e: unknown) => {
        if (NodeClaimNotFoundError.is(e)) return undefined;
        throw e;
      });
      if (!cloud) continue;
      const id = nc.metadata.labels?.[Labels.capacityReservationId] ?? '';
      const verdict = reservationVerdict(nc, cloud, this.o.reservationState(nc.spec.nodeClassRef.name, id));
      if (verdict === 'on-demand') await this.toOnDemand(nc);
      if (verdict === 'expiring') await this.expire(nc, id);
    }
    return { requeueAfter: CapacityReservationPeriodMs };
  }

  private async toOnDemand(nc: StoredNodeClaim): Promise<void> {
    // A merge patch of Karpenter's own keys only: nothing another agent wrote is touched.
    const labels: Record<string, string | null> = { [Labels.capacityType]: 'on-demand' };
    for (const key of reservationLabels) labels[key] = null;
    const name = nc.metadata.name ?? '';
    await this.o.client.patch(Resources.nodeClaims, { name }, { metadata: { labels } }).catch(ignoreNotFound);
    const nodeName = nc.status?.nodeName;
    if (nodeName)
      await this.o.client.patch(Resources.nodes, { name: nodeName }, { metadata: { labels } }).catch(ignoreNotFound);
  }

  private async expire(nc: StoredNodeClaim, reservationId: string): Promise<void> {
    await this.o.recorder.publish(nc, {
      type: 'Normal',
      reason: CapacityReservationEventReasons.expiring,
      message: `Capacity block ${reservationId} is expiring: deleting the NodeClaim before EC2 reclaims the instance`,
    });
    await this.o.client.delete(Resources.nodeClaims, { name: nc.metadata.name ?? '' }).catch(ignoreNotFound);
  }
}
