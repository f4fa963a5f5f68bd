import { rule } from '../schema/builders.js';
import type { ValidationRule } from '../schema/json-schema-props.js';

// The CEL rules Karpenter puts on label keys (template labels and requirement keys), as published in its CRDs.
// The exception lists are kept verbatim (including upstream's spacing) so `x-kubernetes-validations` match.

/** Pattern of a qualified label key (DNS-1123 prefix, then a name), as in Karpenter's CRDs. */
export const LabelKeyPattern =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$';
/** Pattern of a label value. */
export const LabelValuePattern = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';

const domain = (v: string): string => `${v}.find("^([^/]+)")`;

const awsInstanceLabels = [
  'ec2nodeclass',
  'instance-encryption-in-transit-supported',
  'instance-category',
  'instance-hypervisor',
  'instance-family',
  'instance-generation',
  'instance-local-nvme',
  'instance-size',
  'instance-cpu',
  'instance-cpu-manufacturer',
  'instance-cpu-sustained-clock-speed-mhz',
  'instance-memory',
  'instance-ebs-bandwidth',
  'instance-network-bandwidth',
  'instance-gpu-name',
  'instance-gpu-manufacturer',
  'instance-gpu-count',
  'instance-gpu-memory',
  'instance-accelerator-name',
  'instance-accelerator-manufacturer',
  'instance-accelerator-count',
  'instance-capability-flex',
];
const reservationLabels = [
  'instance-tenancy',
  'capacity-reservation-type',
  'capacity-reservation-id',
  'capacity-reservation-interruptible',
];

/**
 * The AWS labels a rule lets through: NodePool template labels (where upstream names one key twice, kept so the
 * rule text matches), requirement keys, or NodeOverlay requirement keys (instance labels only).
 */
function awsLabels(variant: 'template' | 'requirement' | 'overlay'): string {
  const reservation =
    variant === 'template' ? [...reservationLabels, 'capacity-reservation-interruptible'] : reservationLabels;
  const all =
    variant === 'overlay'
      ? awsInstanceLabels
      : [...reservation, ...awsInstanceLabels, 'placement-group-id', 'placement-group-partition'];
  return all.map((l) => `"karpenter.k8s.aws/${l}"`).join(', ');
}

const msg = {
  karpenterSh: 'label domain "karpenter.sh" is restricted',
  nodePool: 'label "karpenter.sh/nodepool" is restricted',
  hostname: 'label "kubernetes.io/hostname" is restricted',
  aws: 'label domain "karpenter.k8s.aws" is restricted',
};

function keyRules(v: string, variant: 'template' | 'requirement' | 'overlay'): Record<keyof typeof msg, string> {
  return {
    karpenterSh: `${v} in ["karpenter.sh/capacity-type", "karpenter.sh/nodepool"] || !${domain(v)}.endsWith("karpenter.sh")`,
    nodePool: `${v} != "karpenter.sh/nodepool"`,
    hostname: `${v} != "kubernetes.io/hostname"`,
    aws: `${v} in [${awsLabels(variant)}] || !${domain(v)}.endsWith("karpenter.k8s.aws")`,
  };
}

/** Rules on `spec.template.metadata.labels` of a NodePool (each applied to every key). */
export function nodePoolLabelMapRules(): ValidationRule[] {
  const r = keyRules('x', 'template');
  const all = (body: string): string => `self.all(x, ${body})`;
  return (['karpenterSh', 'nodePool', 'hostname', 'aws'] as const).map((k) => rule(all(r[k]), msg[k]));
}

/** Rules on a NodePool requirement key. */
export function nodePoolRequirementKeyRules(): ValidationRule[] {
  const r = keyRules('self', 'requirement');
  return (['karpenterSh', 'nodePool', 'hostname', 'aws'] as const).map((k) => rule(r[k], msg[k]));
}

/** Rules on a NodeClaim requirement key (no `karpenter.sh/nodepool` rule: NodeClaims carry that requirement). */
export function nodeClaimRequirementKeyRules(): ValidationRule[] {
  const r = keyRules('self', 'requirement');
  return (['karpenterSh', 'hostname', 'aws'] as const).map((k) => rule(r[k], msg[k]));
}

/** Rules on a NodeOverlay requirement key. */
export function nodeOverlayRequirementKeyRules(): ValidationRule[] {
  const r = keyRules('self', 'overlay');
  return (['karpenterSh', 'hostname', 'aws'] as const).map((k) => rule(r[k], msg[k]));
}
