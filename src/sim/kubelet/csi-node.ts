/** The CSINode a kubelet registers for the EBS CSI driver, with the instance type's attach limit (S4). */
import type { Node } from '../../kube/index.js';
import type { Machine } from '../machines/machine.js';
import type { CsiNode } from '../world/resources.js';

/** The EBS CSI driver's name. */
export const EbsCsiDriver = 'ebs.csi.aws.com';

/**
 * The EBS attach limit the driver reports for an instance type by its hypervisor label: Nitro instances (and bare
 * metal, which carries no hypervisor label) share 28 attachment slots between EBS volumes, ENIs and the root volume
 * (the driver reports 28 minus the root volume and one ENI: 26); Xen instances allow 39.
 */
export function ebsAttachLimitOf(hypervisor: string | undefined): number {
  return hypervisor === 'xen' ? 39 : 26;
}

/** The attach limit of a machine's node: its own figure, else the Nitro one. */
export function volumeAttachLimit(m: Machine): number {
  return m.volumeAttachLimit ?? ebsAttachLimitOf(undefined);
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
