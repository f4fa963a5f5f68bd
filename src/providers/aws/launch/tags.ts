/** The tags Tenon puts on what it launches, with Karpenter's keys. */
import { Labels, type EC2NodeClass } from '../../../api/index.js';
import type { NodeClaim } from '../../../cloudprovider/index.js';
import { nameOf, specOf } from '../nodeclass/settings.js';
import type { Tags } from '../ports/index.js';

/** The cluster-ownership tag key of a cluster. */
export const clusterTagKey = (cluster: string): string => `kubernetes.io/cluster/${cluster}`;
/** Tag key naming the NodeClaim of an instance. */
export const NodeClaimTag = 'karpenter.sh/nodeclaim';

/** Tags shared by every instance of a NodePool and class: the class's own, then Tenon's (which win). */
export function launchTags(cluster: string, nodeClass: EC2NodeClass, nodeClaim: NodeClaim): Tags {
  return {
    ...(specOf(nodeClass).tags ?? {}),
    [clusterTagKey(cluster)]: 'owned',
    [Labels.nodePool]: nodeClaim.metadata.labels?.[Labels.nodePool] ?? '',
    [Labels.ec2NodeClass]: nameOf(nodeClass),
    'eks:eks-cluster-name': cluster,
  };
}

/** Tags only one instance carries: its NodeClaim and Name. */
export function nodeClaimTags(nodeClaim: NodeClaim): Tags {
  return { [NodeClaimTag]: nodeClaim.metadata.name, Name: nodeClaim.metadata.name };
}
