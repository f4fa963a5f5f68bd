/** The CSINode a kubelet registers for the EBS CSI driver, with the instance type's attach limit (S4). */
import type { Node } from '../../kube/index.js';
import type { Machine } from '../machines/machine.js';
import type { CsiNode } from '../world/resources.js';

/** The EBS CSI driver's name. */
export const EbsCsiDriver = 'ebs.csi.aws.com';

/**
 * The EBS attach limit the driver reports: Nitro instances share 28 attachment slots between EBS volumes,
 * ENIs and the root volume (the driver reports 28 minus the root volume and one ENI: 26); older Xen
 * instances allow 39. Machines may carry their own figure.
 */
export function volumeAttachLimit(m: Machine): number {
  if (m.volumeAttachLimit !== undefined) return m.volumeAttachLimit;
  const family = m.instanceType.split('.')[0] ?? '';
  return /^(t2|m4|c4|r4|x1|i3|d2|p2|p3|g3|h1)$/.test(family) ? 39 : 26;
}

/** The CSINode object of a machine's Node (owned by the Node, as the kubelet creates it). */
export function csiNodeFor(m: Machine, node: Node | undefined): CsiNode {
  return {
    metadata: {
      name: m.nodeName,
      ...(node?.metadata.uid
        ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: m.nodeName, uid: node.metadata.uid }] }
        : {}),
    },
    spec: {
      drivers: [
        {
          name: EbsCsiDriver,
          nodeID: m.instanceId,
          topologyKeys: ['topology.ebs.csi.aws.com/zone'],
          allocatable: { count: volumeAttachLimit(m) },
        },
      ],
    },
  };
}
