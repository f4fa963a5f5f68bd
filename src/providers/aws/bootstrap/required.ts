import { UnregisteredTaint, type Taint } from '../../../api/index.js';
import { kubeletMaySetLabel } from './label-strings.js';
import { unionTaints } from './taint-strings.js';
import type { KubeletSettings, UserDataInput } from './types.js';

/** The registration taint every Tenon-launched node must carry until Tenon adopts it. */
export const RegistrationTaint: Taint = { key: UnregisteredTaint.key, effect: UnregisteredTaint.effect };

/** Taints the kubelet must register with: the registration taint, NodePool taints and startupTaints. */
export function requiredTaints(input: Pick<UserDataInput, 'taints' | 'startupTaints'>): Taint[] {
  return unionTaints([], [RegistrationTaint, ...input.taints, ...input.startupTaints]);
}

/** Labels the kubelet registers with: the NodeClaim's, minus those the kubelet may not set on itself. */
export function requiredLabels(labels: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) if (kubeletMaySetLabel(k)) out[k] = v;
  return out;
}

/** The max pods Tenon launches with: EC2NodeClass kubelet.maxPods, else the instance type's resolved value. */
export function effectiveMaxPods(input: Pick<UserDataInput, 'kubelet' | 'maxPods'>): number | undefined {
  return input.kubelet?.maxPods ?? input.maxPods;
}

function joinMap(m: Record<string, string> | undefined, sep: string): string | undefined {
  if (!m || Object.keys(m).length === 0) return undefined;
  return Object.keys(m)
    .sort()
    .map((k) => `${k}${sep}${m[k] ?? ''}`)
    .join(',');
}

/** EC2NodeClass kubelet settings as kubelet flags (what Karpenter passes through --kubelet-extra-args). */
export function kubeletSettingFlags(kubelet: KubeletSettings | undefined, maxPods: number | undefined): string[] {
  const k = kubelet ?? {};
  const out: string[] = [];
  if (maxPods !== undefined) out.push(`--max-pods=${maxPods}`);
  if (k.podsPerCore !== undefined) out.push(`--pods-per-core=${k.podsPerCore}`);
  const maps: [string, Record<string, string> | undefined, string][] = [
    ['--system-reserved', k.systemReserved, '='],
    ['--kube-reserved', k.kubeReserved, '='],
    ['--eviction-hard', k.evictionHard, '<'],
    ['--eviction-soft', k.evictionSoft, '<'],
    ['--eviction-soft-grace-period', k.evictionSoftGracePeriod, '='],
  ];
  for (const [flag, m, sep] of maps) {
    const v = joinMap(m, sep);
    if (v) out.push(`${flag}="${v}"`);
  }
  if (k.evictionMaxPodGracePeriod !== undefined)
    out.push(`--eviction-max-pod-grace-period=${k.evictionMaxPodGracePeriod}`);
  if (k.imageGCHighThresholdPercent !== undefined)
    out.push(`--image-gc-high-threshold=${k.imageGCHighThresholdPercent}`);
  if (k.imageGCLowThresholdPercent !== undefined) out.push(`--image-gc-low-threshold=${k.imageGCLowThresholdPercent}`);
  if (k.cpuCFSQuota !== undefined) out.push(`--cpu-cfs-quota=${k.cpuCFSQuota}`);
  return out;
}

/** The cluster DNS IP to configure, if Tenon knows one. */
export function clusterDnsIp(input: Pick<UserDataInput, 'kubelet' | 'cluster'>): string | undefined {
  return input.kubelet?.clusterDNS?.[0] ?? input.cluster.dnsIp;
}

/** Thrown by `generateUserData` when the user's userData cannot be read (the NodeClass cannot launch). */
export class InvalidUserDataError extends Error {
  readonly kind = 'InvalidUserData' as const;
  /** Type guard that works across copies of this module. */
  static is(e: unknown): e is InvalidUserDataError {
    return typeof e === 'object' && e !== null && (e as { kind?: unknown }).kind === 'InvalidUserData';
  }
}
