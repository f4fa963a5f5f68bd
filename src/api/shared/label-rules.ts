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

const kubernetesIoLabelsMapExceptions =
  '"beta.kubernetes.io/instance-type", "failure-domain.beta.kubernetes.io/region",  "beta.kubernetes.io/os", "beta.kubernetes.io/arch", "failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone", "topology.kubernetes.io/region", "kubernetes.io/arch", "kubernetes.io/os", "node.kubernetes.io/windows-build"';
const kubernetesIoRequirementExceptions =
  '"beta.kubernetes.io/instance-type", "failure-domain.beta.kubernetes.io/region", "beta.kubernetes.io/os", "beta.kubernetes.io/arch", "failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone", "topology.kubernetes.io/region", "node.kubernetes.io/instance-type", "kubernetes.io/arch", "kubernetes.io/os", "node.kubernetes.io/windows-build"';

/** AWS labels users may set on NodePools (NodePool CRD, karpenter-provider-aws chart, controller-gen v0.16.5). */
const awsNodePoolExceptions =
  '"karpenter.k8s.aws/instance-encryption-in-transit-supported", "karpenter.k8s.aws/instance-category", "karpenter.k8s.aws/instance-hypervisor", "karpenter.k8s.aws/instance-family", "karpenter.k8s.aws/instance-generation", "karpenter.k8s.aws/instance-local-nvme", "karpenter.k8s.aws/instance-size", "karpenter.k8s.aws/instance-cpu","karpenter.k8s.aws/instance-cpu-manufacturer","karpenter.k8s.aws/instance-memory", "karpenter.k8s.aws/instance-ebs-bandwidth", "karpenter.k8s.aws/instance-network-bandwidth", "karpenter.k8s.aws/instance-gpu-name", "karpenter.k8s.aws/instance-gpu-manufacturer", "karpenter.k8s.aws/instance-gpu-count", "karpenter.k8s.aws/instance-gpu-memory", "karpenter.k8s.aws/instance-accelerator-name", "karpenter.k8s.aws/instance-accelerator-manufacturer", "karpenter.k8s.aws/instance-accelerator-count"';
/** AWS labels allowed as NodeClaim requirement keys (NodeClaim CRD, controller-gen v0.18.0). */
const awsNodeClaimExceptions =
  '"karpenter.k8s.aws/ec2nodeclass", "karpenter.k8s.aws/instance-encryption-in-transit-supported", "karpenter.k8s.aws/instance-category", "karpenter.k8s.aws/instance-hypervisor", "karpenter.k8s.aws/instance-family", "karpenter.k8s.aws/instance-generation", "karpenter.k8s.aws/instance-local-nvme", "karpenter.k8s.aws/instance-size", "karpenter.k8s.aws/instance-cpu", "karpenter.k8s.aws/instance-cpu-manufacturer", "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz", "karpenter.k8s.aws/instance-memory", "karpenter.k8s.aws/instance-ebs-bandwidth", "karpenter.k8s.aws/instance-network-bandwidth", "karpenter.k8s.aws/instance-gpu-name", "karpenter.k8s.aws/instance-gpu-manufacturer", "karpenter.k8s.aws/instance-gpu-count", "karpenter.k8s.aws/instance-gpu-memory", "karpenter.k8s.aws/instance-accelerator-name", "karpenter.k8s.aws/instance-accelerator-manufacturer", "karpenter.k8s.aws/instance-accelerator-count"';

const msg = {
  kubernetesIo: 'label domain "kubernetes.io" is restricted',
  k8sIo: 'label domain "k8s.io" is restricted',
  karpenterSh: 'label domain "karpenter.sh" is restricted',
  nodePool: 'label "karpenter.sh/nodepool" is restricted',
  hostname: 'label "kubernetes.io/hostname" is restricted',
  aws: 'label domain "karpenter.k8s.aws" is restricted',
};

function keyRules(v: string, exceptions: { kubernetesIo: string; aws: string }): Record<keyof typeof msg, string> {
  return {
    kubernetesIo: `${v} in [${exceptions.kubernetesIo}] || ${domain(v)}.endsWith("node.kubernetes.io") || ${domain(v)}.endsWith("node-restriction.kubernetes.io") || !${domain(v)}.endsWith("kubernetes.io")`,
    k8sIo: `${domain(v)}.endsWith("kops.k8s.io") || !${domain(v)}.endsWith("k8s.io")`,
    karpenterSh: `${v} in ["karpenter.sh/capacity-type", "karpenter.sh/nodepool"] || !${domain(v)}.endsWith("karpenter.sh")`,
    nodePool: `${v} != "karpenter.sh/nodepool"`,
    hostname: `${v} != "kubernetes.io/hostname"`,
    aws: `${v} in [${exceptions.aws}] || !${domain(v)}.endsWith("karpenter.k8s.aws")`,
  };
}

/** Rules on `spec.template.metadata.labels` of a NodePool (each applied to every key). */
export function nodePoolLabelMapRules(): ValidationRule[] {
  const r = keyRules('x', { kubernetesIo: kubernetesIoLabelsMapExceptions, aws: awsNodePoolExceptions });
  const all = (body: string): string => `self.all(x, ${body})`;
  return (['kubernetesIo', 'k8sIo', 'karpenterSh', 'nodePool', 'hostname', 'aws'] as const).map((k) => rule(all(r[k]), msg[k]));
}

/** Rules on a NodePool requirement key. */
export function nodePoolRequirementKeyRules(): ValidationRule[] {
  const r = keyRules('self', { kubernetesIo: kubernetesIoRequirementExceptions, aws: awsNodePoolExceptions });
  return (['kubernetesIo', 'k8sIo', 'karpenterSh', 'nodePool', 'hostname', 'aws'] as const).map((k) => rule(r[k], msg[k]));
}

/** Rules on a NodeClaim requirement key (no `karpenter.sh/nodepool` rule: NodeClaims carry that requirement). */
export function nodeClaimRequirementKeyRules(): ValidationRule[] {
  const r = keyRules('self', { kubernetesIo: kubernetesIoRequirementExceptions, aws: awsNodeClaimExceptions });
  return (['kubernetesIo', 'k8sIo', 'karpenterSh', 'hostname', 'aws'] as const).map((k) => rule(r[k], msg[k]));
}
