/** NodeClaims as the cloud sees them: from a fresh launch (Create) and from a described instance (Get, List). */
import { Annotations, Labels, type EC2NodeClass } from '../../../api/index.js';
import { rfc3339 } from '../../../clock/index.js';
import type { NodeClaim } from '../../../cloudprovider/index.js';
import type { ResolvedInstanceType } from '../instancetype/instance-types-provider.js';
import type { Launched } from '../launch/launcher.js';
import { NodeClaimTag } from '../launch/tags.js';
import { NodeClassHashVersion, nodeClassHash } from '../nodeclass/hash.js';
import { nameOf } from '../nodeclass/settings.js';
import type { InstanceInfo } from '../ports/index.js';
import { providerIdOf } from './provider-id.js';

function zoneIdOf(nodeClass: EC2NodeClass | undefined, zone: string): string | undefined {
  return nodeClass?.status?.subnets?.find((s) => s.zone === zone)?.zoneID;
}

function offeringLabels(zone: string, capacityType: string, zoneId: string | undefined): Record<string, string> {
  return { [Labels.zone]: zone, [Labels.capacityType]: capacityType, ...(zoneId ? { [Labels.zoneId]: zoneId } : {}) };
}

/**
 * A node in a capacity reservation is `reserved`, with the reservation's id, type and interruptibility (Karpenter's
 * labels); one whose reservation the class no longer lists (expired, cancelled) is an on-demand node again.
 */
function reservationLabels(
  nodeClass: EC2NodeClass | undefined,
  reservationId: string | undefined,
): Record<string, string> {
  const r = nodeClass?.status?.capacityReservations?.find((x) => x.id === reservationId);
  if (!r) return {};
  return {
    [Labels.capacityType]: 'reserved',
    [Labels.capacityReservationId]: r.id,
    [Labels.capacityReservationType]: r.reservationType ?? 'default',
    [Labels.capacityReservationInterruptible]: String(r.interruptible ?? false),
  };
}

/** The placement group id (and the partition of a partition group) the instance launched into. */
function placementLabels(launched: Launched): Record<string, string> {
  const group = launched.placementGroup;
  if (!group) return {};
  const out: Record<string, string> = { [Labels.placementGroupId]: group.groupId };
  // EC2 picks the partition when the NodeClaim named none: the label is then empty, as Karpenter leaves it.
  if (group.strategy === 'partition') out[Labels.placementGroupPartition] = String(launched.partition ?? '');
  return out;
}

/** The NodeClaim Create returns: the input with providerID, image, capacity, allocatable and the launched labels. */
export function launchedNodeClaim(nodeClaim: NodeClaim, nodeClass: EC2NodeClass, launched: Launched): NodeClaim {
  const { instance, candidate, imageId } = launched;
  const it = candidate.type.instanceType;
  return {
    ...nodeClaim,
    metadata: {
      ...nodeClaim.metadata,
      labels: {
        ...nodeClaim.metadata.labels,
        ...it.labels,
        ...offeringLabels(instance.zone, instance.capacityType, zoneIdOf(nodeClass, instance.zone)),
        ...reservationLabels(nodeClass, launched.reservation?.id),
        ...placementLabels(launched),
      },
      annotations: {
        ...nodeClaim.metadata.annotations,
        [Annotations.nodeClassHash]: nodeClassHash(nodeClass),
        [Annotations.nodeClassHashVersion]: NodeClassHashVersion,
      },
    },
    status: {
      ...nodeClaim.status,
      providerID: providerIdOf(instance.zone, instance.instanceId),
      imageID: imageId,
      capacity: { ...it.capacity },
      allocatable: { ...it.allocatable },
    },
  };
}

/** The NodeClaim an instance describes (type labels and resources when the type is known). */
export function instanceNodeClaim(
  instance: InstanceInfo,
  type: ResolvedInstanceType | undefined,
  nodeClass: EC2NodeClass | undefined,
  now: number,
): NodeClaim {
  const it = type?.instanceType;
  const stopping = instance.state === 'shutting-down' || instance.state === 'terminated';
  return {
    metadata: {
      name: instance.tags[NodeClaimTag] ?? instance.instanceId,
      labels: {
        ...it?.labels,
        [Labels.instanceType]: instance.instanceType,
        ...offeringLabels(instance.zone, instance.capacityType, zoneIdOf(nodeClass, instance.zone)),
        ...reservationLabels(nodeClass, instance.capacityReservationId),
        ...(instance.tags[Labels.nodePool] ? { [Labels.nodePool]: instance.tags[Labels.nodePool] } : {}),
      },
      annotations: {},
      creationTimestamp: rfc3339(instance.launchTime.getTime()),
      ...(stopping ? { deletionTimestamp: rfc3339(now) } : {}),
    },
    spec: {
      nodeClassRef: {
        group: 'karpenter.k8s.aws',
        kind: 'EC2NodeClass',
        name: instance.tags[Labels.ec2NodeClass] ?? (nodeClass ? nameOf(nodeClass) : ''),
      },
      requirements: [],
    },
    status: {
      providerID: providerIdOf(instance.zone, instance.instanceId),
      imageID: instance.imageId,
      ...(it ? { capacity: { ...it.capacity }, allocatable: { ...it.allocatable } } : {}),
    },
  };
}
