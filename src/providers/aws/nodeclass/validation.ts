/** ValidationSucceeded: what Tenon can check about an EC2NodeClass without launching (kubelet, userData, tags). */
import { ConditionTypes, checkKubelet, type EC2NodeClass, ConditionReasons } from '../../../api/index.js';
import { tryGenerateUserData } from '../bootstrap/index.js';
import { ok, type ConditionOutcome } from './conditions.js';
import { amiFamilyOf, kubeletOf, specOf } from './settings.js';

const restrictedTagPrefixes = [
  'kubernetes.io/cluster/',
  'eks:eks-cluster-name',
  'karpenter.sh/nodepool',
  'karpenter.sh/nodeclaim',
  'karpenter.k8s.aws/ec2nodeclass',
];

/** Whether the class's userData can be merged and its tags are allowed. */
export function validateNodeClass(nodeClass: EC2NodeClass, clusterName: string): ConditionOutcome {
  const type = ConditionTypes.validationSucceeded;
  const spec = specOf(nodeClass);
  const restricted = Object.keys(spec.tags ?? {}).filter((k) => restrictedTagPrefixes.some((p) => k.startsWith(p)));
  if (restricted.length > 0) {
    return {
      type,
      status: 'False',
      reason: ConditionReasons.tagsNotAllowed,
      message: `tags ${restricted.join(', ')} are set by Tenon and cannot be overridden`,
    };
  }
  const kubelet = checkKubelet(spec.kubelet);
  if (!kubelet.ok) {
    return {
      type,
      status: 'False',
      reason: ConditionReasons.invalidKubeletConfiguration,
      message: kubelet.errors.map((e) => e.message).join('; '),
    };
  }
  const generated = tryGenerateUserData({
    amiFamily: amiFamilyOf(nodeClass),
    userData: spec.userData,
    cluster: { name: clusterName, endpoint: 'https://validation.invalid', caBundle: '' },
    labels: {},
    taints: [],
    startupTaints: [],
    kubelet: kubeletOf(nodeClass),
  });
  if (!generated.ok)
    return {
      type,
      status: 'False',
      reason: ConditionReasons.invalidUserData,
      message: `spec.userData cannot be used: ${generated.error}`,
    };
  return ok(type);
}
