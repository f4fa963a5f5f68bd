/** What differs between AMI families for instance types and launches: feature flags and default block devices. */
import type { AmiFamily } from '../bootstrap/index.js';
import type { BlockDeviceMapping } from '../ports/index.js';

/** Karpenter's per-family feature flags that change capacity and overhead. */
export interface FamilyFlags {
  /** Kube-reserved memory counts ENI-limited pods even when maxPods is set. */
  usesEniLimitedMemoryOverhead: boolean;
  podsPerCoreEnabled: boolean;
  evictionSoftEnabled: boolean;
  /** Max pods defaults to the ENI limit (else 110). */
  supportsEniLimitedPodDensity: boolean;
}

/** The flags of each family (Windows: 110 pods, ENI-limited memory overhead, no pods-per-core). */
export const familyFlags: { [F in AmiFamily]: FamilyFlags } = {
  AL2: {
    usesEniLimitedMemoryOverhead: true,
    podsPerCoreEnabled: true,
    evictionSoftEnabled: true,
    supportsEniLimitedPodDensity: true,
  },
  AL2023: {
    usesEniLimitedMemoryOverhead: false,
    podsPerCoreEnabled: true,
    evictionSoftEnabled: true,
    supportsEniLimitedPodDensity: true,
  },
  Bottlerocket: {
    usesEniLimitedMemoryOverhead: false,
    podsPerCoreEnabled: true,
    evictionSoftEnabled: true,
    supportsEniLimitedPodDensity: true,
  },
  Windows2019: {
    usesEniLimitedMemoryOverhead: true,
    podsPerCoreEnabled: false,
    evictionSoftEnabled: false,
    supportsEniLimitedPodDensity: false,
  },
  Windows2022: {
    usesEniLimitedMemoryOverhead: true,
    podsPerCoreEnabled: false,
    evictionSoftEnabled: false,
    supportsEniLimitedPodDensity: false,
  },
  Windows2025: {
    usesEniLimitedMemoryOverhead: true,
    podsPerCoreEnabled: false,
    evictionSoftEnabled: false,
    supportsEniLimitedPodDensity: false,
  },
  Custom: {
    usesEniLimitedMemoryOverhead: true,
    podsPerCoreEnabled: true,
    evictionSoftEnabled: true,
    supportsEniLimitedPodDensity: true,
  },
};

const gp3 = (deviceName: string, volumeSizeGiB: number): BlockDeviceMapping => ({
  deviceName,
  volumeSizeGiB,
  volumeType: 'gp3',
  encrypted: true,
  deleteOnTermination: true,
});

/** The block devices a family launches with when the EC2NodeClass names none. */
export function defaultBlockDevices(family: AmiFamily): BlockDeviceMapping[] {
  switch (family) {
    case 'AL2':
    case 'AL2023':
      return [gp3('/dev/xvda', 20)];
    case 'Bottlerocket':
      return [gp3('/dev/xvda', 4), gp3('/dev/xvdb', 20)];
    case 'Windows2019':
    case 'Windows2022':
    case 'Windows2025':
      return [gp3('/dev/sda1', 50)];
    case 'Custom':
      return [];
  }
}

/** The device whose size is the node's ephemeral storage. */
export function ephemeralDevice(family: AmiFamily): string {
  switch (family) {
    case 'Bottlerocket':
      return '/dev/xvdb';
    case 'Windows2019':
    case 'Windows2022':
    case 'Windows2025':
      return '/dev/sda1';
    default:
      return '/dev/xvda';
  }
}

/** Windows Server builds by family, as Karpenter labels Windows nodes (`node.kubernetes.io/windows-build`). */
const windowsBuilds: Partial<Record<AmiFamily, string>> = {
  Windows2019: '10.0.17763',
  Windows2022: '10.0.20348',
  Windows2025: '10.0.26100',
};

/** The `node.kubernetes.io/windows-build` of a Windows family's nodes; undefined for Linux families. */
export function familyWindowsBuild(family: AmiFamily): string | undefined {
  return windowsBuilds[family];
}

/** The OS a node of the family runs. */
export function familyOs(family: AmiFamily): 'linux' | 'windows' {
  return family.startsWith('Windows') ? 'windows' : 'linux';
}
