import type { LintFinding } from './types.js';

/** Where a finding points. */
export type Location = LintFinding['location'];

/** Collects findings for one NodeClass. */
export class Findings {
  readonly list: LintFinding[] = [];
  /** Records a finding. */
  add(f: LintFinding): void {
    this.list.push(f);
  }
  /** True when a finding with this code was recorded. */
  has(code: string): boolean {
    return this.list.some((f) => f.code === code);
  }
}

/** Stable lint codes (documented in docs/bootstrap-lint.md). */
export const LintCodes = {
  userDataMissing: 'USERDATA_MISSING',
  familyUnknown: 'AMI_FAMILY_UNKNOWN',
  mimeMalformed: 'MIME_MALFORMED',
  userDataInvalid: 'USERDATA_INVALID',
  unrecognisedOption: 'BOOTSTRAP_UNRECOGNISED_OPTION',
  bootstrapFails: 'BOOTSTRAP_FAILS',
  bootstrapNotFound: 'BOOTSTRAP_NOT_FOUND',
  bootstrapCalledTwice: 'BOOTSTRAP_MULTIPLE_CALLS',
  bootstrapInUserData: 'BOOTSTRAP_CALLED_IN_USERDATA',
  bootstrapShOnAl2023: 'BOOTSTRAP_SH_ON_AL2023',
  taintMalformed: 'TAINT_MALFORMED',
  labelMalformed: 'LABEL_MALFORMED',
  labelRestricted: 'LABEL_RESTRICTED',
  setsTaints: 'USERDATA_SETS_TAINTS',
  setsLabels: 'USERDATA_SETS_LABELS',
  setsKubelet: 'USERDATA_SETS_KUBELET_SETTING',
  setsCluster: 'USERDATA_SETS_CLUSTER',
  nodeConfigInvalid: 'NODECONFIG_INVALID',
  tomlInvalid: 'BOTTLEROCKET_INVALID_TOML',
  registrationTaintMissing: 'REGISTRATION_TAINT_MISSING',
  registrationTaintLegacy: 'REGISTRATION_TAINT_LEGACY',
  bootFails: 'BOOT_FAILS',
} as const;

/** Kubelet flag → EC2NodeClass `spec.kubelet` field Tenon manages. */
export const ManagedFlags: Readonly<Record<string, string>> = {
  'max-pods': 'maxPods',
  'pods-per-core': 'podsPerCore',
  'system-reserved': 'systemReserved',
  'kube-reserved': 'kubeReserved',
  'eviction-hard': 'evictionHard',
  'eviction-soft': 'evictionSoft',
  'eviction-soft-grace-period': 'evictionSoftGracePeriod',
  'eviction-max-pod-grace-period': 'evictionMaxPodGracePeriod',
  'image-gc-high-threshold': 'imageGCHighThresholdPercent',
  'image-gc-low-threshold': 'imageGCLowThresholdPercent',
  'cpu-cfs-quota': 'cpuCFSQuota',
  'cluster-dns': 'clusterDNS',
};

/** KubeletConfiguration key → EC2NodeClass `spec.kubelet` field (the same names). */
export const ManagedConfigKeys: readonly string[] = Object.values(ManagedFlags);

/** Bottlerocket `settings.kubernetes` key → EC2NodeClass `spec.kubelet` field. */
export const ManagedBottlerocketKeys: Readonly<Record<string, string>> = {
  'max-pods': 'maxPods',
  'system-reserved': 'systemReserved',
  'kube-reserved': 'kubeReserved',
  'eviction-hard': 'evictionHard',
  'eviction-soft': 'evictionSoft',
  'eviction-soft-grace-period': 'evictionSoftGracePeriod',
  'eviction-max-pod-grace-period': 'evictionMaxPodGracePeriod',
  'image-gc-high-threshold-percent': 'imageGCHighThresholdPercent',
  'image-gc-low-threshold-percent': 'imageGCLowThresholdPercent',
  'cpu-cfs-quota-enforced': 'cpuCFSQuota',
  'cluster-dns-ip': 'clusterDNS',
};

/** The advice for userData that sets taints. */
export const taintFix =
  'Put these taints in the NodePool (spec.template.spec.taints, or startupTaints for taints an agent removes once it is ready) and remove them from userData; Tenon merges them so the registration taint is never lost.';
/** The advice for userData that sets labels. */
export const labelFix =
  'Put these labels in the NodePool (spec.template.metadata.labels) and remove them from userData.';
/** The advice for userData that sets kubelet settings. */
export function kubeletFix(field: string): string {
  return `Set EC2NodeClass spec.kubelet.${field} instead; Tenon computes allocatable capacity from it, and a userData value silently disagrees.`;
}
