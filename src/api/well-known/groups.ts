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
/** SIG Autoscaling's API group (CapacityBuffer). */
export const AutoscalingXK8sGroup = 'autoscaling.x-k8s.io' as const;
/** `apiVersion` of NodeOverlay objects (alpha in Karpenter v1.15). */
export const NodeOverlayApiVersion = `${KarpenterGroup}/v1alpha1` as const;
/** `apiVersion` of CapacityBuffer objects. */
export const CapacityBufferApiVersion = `${AutoscalingXK8sGroup}/v1beta1` as const;
