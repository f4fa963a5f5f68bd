/** A taint effect, as in core/v1. */
export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

/** A taint with a fixed key, value and effect. */
export interface WellKnownTaint {
  readonly key: string;
  readonly value?: string;
  readonly effect: TaintEffect;
}

/** Every Karpenter-launched node registers with this taint until Karpenter adopts it. */
export const UnregisteredTaint: WellKnownTaint = { key: 'karpenter.sh/unregistered', effect: 'NoExecute' };
/** Put on nodes that are being disrupted so nothing new lands there. */
export const DisruptedTaint: WellKnownTaint = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' };
/** The pre-v1 registration taint that custom bootstrap lines still name (SCENARIOS.md S3). */
export const LegacyUninitializedTaintKey = 'karpenter.sh/uninitialized' as const;

/** Taint keys placed by Kubernetes components that are expected to go away on their own (SCENARIOS.md S1). */
export const EphemeralTaintKeys = {
  notReady: 'node.kubernetes.io/not-ready',
  unreachable: 'node.kubernetes.io/unreachable',
  cloudProviderUninitialized: 'node.cloudprovider.kubernetes.io/uninitialized',
  unregistered: 'karpenter.sh/unregistered',
} as const;

/** Any taint under this prefix is a readiness gate owned by some agent and counts as ephemeral. */
export const ReadinessTaintPrefix = 'readiness.k8s.io/' as const;

/** The agent expected to remove each known ephemeral taint, for messages that tell users whom to look at. */
export const EphemeralTaintOwners: Readonly<Record<string, string>> = {
  [EphemeralTaintKeys.notReady]: 'the node lifecycle controller (once the kubelet reports Ready)',
  [EphemeralTaintKeys.unreachable]: 'the node lifecycle controller (once the kubelet posts status again)',
  [EphemeralTaintKeys.cloudProviderUninitialized]: 'the cloud controller manager',
  [EphemeralTaintKeys.unregistered]: 'Tenon (at registration)',
};

/** True for the taints of SCENARIOS.md S1 that are expected to disappear without the user's help. */
export function isKnownEphemeralTaintKey(key: string): boolean {
  return Object.values(EphemeralTaintKeys).some((k) => k === key) || key.startsWith(ReadinessTaintPrefix);
}
