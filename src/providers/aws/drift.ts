/** IsDrifted for AWS: the AMI, subnet or security groups are no longer selected, or the class's static fields changed. */
import { Annotations, Labels, type EC2NodeClass } from '../../api/index.js';
import type { DriftReason, NodeClaim } from '../../cloudprovider/index.js';
import { NodeClassHashVersion, nodeClassHash } from './nodeclass/hash.js';
import type { InstanceInfo, PlacementGroupInfo } from './ports/index.js';

/** Karpenter's AWS drift reasons. */
export const DriftReasons = {
  ami: 'AMIDrift',
  subnet: 'SubnetDrift',
  securityGroup: 'SecurityGroupDrift',
  nodeClass: 'NodeClassDrift',
  placementGroup: 'PlacementGroupDrift',
} as const;

function resolvedDrift(nodeClass: EC2NodeClass, instance: InstanceInfo): DriftReason | undefined {
  const status = nodeClass.status;
  const amis = status?.amis ?? [];
  if (amis.length > 0 && !amis.some((a) => a.id === instance.imageId)) return DriftReasons.ami;
  const subnets = status?.subnets ?? [];
  if (subnets.length > 0 && !subnets.some((s) => s.id === instance.subnetId)) return DriftReasons.subnet;
  const groups = new Set((status?.securityGroups ?? []).map((g) => g.id));
  if (
    groups.size > 0 &&
    (groups.size !== instance.securityGroupIds.length || instance.securityGroupIds.some((g) => !groups.has(g)))
  ) {
    return DriftReasons.securityGroup;
  }
  return undefined;
}

function staticDrift(nodeClaim: NodeClaim, nodeClass: EC2NodeClass): DriftReason | undefined {
  const annotations = nodeClaim.metadata.annotations ?? {};
  const hash = annotations[Annotations.nodeClassHash];
  // A hash of another scheme version cannot be compared; Karpenter re-stamps it instead of drifting.
  if (
    hash !== undefined &&
    annotations[Annotations.nodeClassHashVersion] === NodeClassHashVersion &&
    hash !== nodeClassHash(nodeClass)
  ) {
    return DriftReasons.nodeClass;
  }
  return undefined;
}

/** Why the instance differs from what the class would launch now, or undefined. */
export function driftOf(
  nodeClaim: NodeClaim,
  nodeClass: EC2NodeClass,
  instance: InstanceInfo,
): DriftReason | undefined {
  return resolvedDrift(nodeClass, instance) ?? staticDrift(nodeClaim, nodeClass);
}

/** PlacementGroupDrift when the node's placement group label is not the group the class resolves to now. */
export function placementGroupDrift(
  nodeClaim: NodeClaim,
  group: PlacementGroupInfo | undefined,
): DriftReason | undefined {
  const labelled = nodeClaim.metadata.labels?.[Labels.placementGroupId] ?? '';
  return labelled !== (group?.groupId ?? '') ? DriftReasons.placementGroup : undefined;
}
