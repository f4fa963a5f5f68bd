/** The default EC2NodeClass and NodePool the playground installs: the getting-started guide's, for its cluster. */
import type { KubeObject } from '../../kube/index.js';
import { parseManifests } from '../scenario/apply.js';

/** The annotation `kubectl apply` keeps its last applied manifest in. */
const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * The default objects as `kubectl apply` would have left them: with the last-applied annotation, so a user's
 * `kubectl apply` of their own EC2NodeClass "default" replaces it quietly (no missing-annotation warning, and
 * the fields they leave out are removed, not merged in).
 */
export function defaultObjects(cluster: string): KubeObject[] {
  return parseManifests(defaultManifests(cluster)).map((o) => ({
    ...o,
    metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, [lastApplied]: `${JSON.stringify(o)}\n` } },
  }));
}

/** Manifests of the default EC2NodeClass and NodePool for a cluster named `cluster`. */
export function defaultManifests(cluster: string): string {
  return `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  role: KarpenterNodeRole-${cluster}
  amiSelectorTerms:
    - alias: al2023@latest
  subnetSelectorTerms:
    - tags: {karpenter.sh/discovery: ${cluster}}
  securityGroupSelectorTerms:
    - tags: {karpenter.sh/discovery: ${cluster}}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: default
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
        - {key: kubernetes.io/arch, operator: In, values: [amd64]}
        - {key: kubernetes.io/os, operator: In, values: [linux]}
        - {key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand]}
        - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}
        - {key: karpenter.k8s.aws/instance-generation, operator: Gt, values: ["2"]}
      expireAfter: 720h
  limits:
    cpu: "1000"
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 1m
`;
}
