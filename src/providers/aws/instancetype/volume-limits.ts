/** How many EBS volumes a node can attach, as the EBS CSI driver reports it in the node's CSINode. */

/** The EBS CSI driver's name. */
export const EbsCsiDriver = 'ebs.csi.aws.com';

/**
 * The EBS attach limit of an instance type by its hypervisor. Nitro instances (and bare metal, which has no
 * hypervisor label) share 28 attachment slots between EBS volumes, network interfaces and the root volume, which
 * leaves 26 volumes with one interface: the driver's figure for a node that has not attached more interfaces. Xen
 * instances attach 39.
 */
export function ebsAttachLimit(hypervisor: string | undefined): number {
  return hypervisor === 'xen' ? 39 : 26;
}
