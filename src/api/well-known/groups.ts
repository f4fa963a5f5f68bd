/** API groups and versions Tenon serves, as Karpenter names them. */
export const KarpenterGroup = 'karpenter.sh' as const;
/** The AWS provider's API group. */
export const KarpenterAwsGroup = 'karpenter.k8s.aws' as const;
/** The only served version of both groups. */
export const ApiVersionV1 = 'v1' as const;
/** `apiVersion` of NodePool and NodeClaim objects. */
export const KarpenterApiVersion = `${KarpenterGroup}/${ApiVersionV1}` as const;
/** `apiVersion` of EC2NodeClass objects. */
export const KarpenterAwsApiVersion = `${KarpenterAwsGroup}/${ApiVersionV1}` as const;
