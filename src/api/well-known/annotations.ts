/** Well-known annotations, as Karpenter names them. */
export const Annotations = {
  doNotDisrupt: 'karpenter.sh/do-not-disrupt',
  nodePoolHash: 'karpenter.sh/nodepool-hash',
  nodePoolHashVersion: 'karpenter.sh/nodepool-hash-version',
  nodeClaimTerminationTimestamp: 'karpenter.sh/nodeclaim-termination-timestamp',
  nodeClassHash: 'karpenter.k8s.aws/ec2nodeclass-hash',
  nodeClassHashVersion: 'karpenter.k8s.aws/ec2nodeclass-hash-version',
  nodeClaimMinValuesRelaxed: 'karpenter.sh/nodeclaim-min-values-relaxed',
  /** Tenon's own: when an interrupted NodeClaim's instance goes away (its drain waits for a replacement until then). */
  instanceTerminationTime: 'tenon.sh/instance-termination-time',
} as const;

/** Finalizers Tenon places, with Karpenter's names. */
export const Finalizers = {
  termination: 'karpenter.sh/termination',
  awsTermination: 'karpenter.k8s.aws/termination',
} as const;
