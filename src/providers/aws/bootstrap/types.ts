import type { Taint } from '../../../api/index.js';

/** The AMI families Tenon generates userData for (EC2NodeClass `spec.amiFamily` or its alias). */
export type AmiFamily = 'AL2' | 'AL2023' | 'Bottlerocket' | 'Windows2019' | 'Windows2022' | 'Windows2025' | 'Custom';

/** What the node needs to know to join the cluster. */
export interface ClusterInfo {
  name: string;
  endpoint: string;
  /** Base64 of the cluster CA bundle. */
  caBundle: string;
  /** Service CIDR; nodeadm derives the cluster DNS IP from it. */
  serviceCidr?: string;
  /** Cluster DNS IP when known. */
  dnsIp?: string;
  ipFamily?: 'ipv4' | 'ipv6';
}

/** EC2NodeClass `spec.kubelet` (the settings Tenon manages on the kubelet). */
export interface KubeletSettings {
  maxPods?: number;
  podsPerCore?: number;
  systemReserved?: Record<string, string>;
  kubeReserved?: Record<string, string>;
  evictionHard?: Record<string, string>;
  evictionSoft?: Record<string, string>;
  evictionSoftGracePeriod?: Record<string, string>;
  evictionMaxPodGracePeriod?: number;
  imageGCHighThresholdPercent?: number;
  imageGCLowThresholdPercent?: number;
  cpuCFSQuota?: boolean;
  clusterDNS?: string[];
}

/** Everything `generateUserData` needs for one launch. */
export interface UserDataInput {
  amiFamily: AmiFamily;
  /** EC2NodeClass `spec.userData`, plain text. */
  userData?: string;
  cluster: ClusterInfo;
  /** NodeClaim labels. */
  labels: Record<string, string>;
  taints: Taint[];
  startupTaints: Taint[];
  kubelet?: KubeletSettings;
  /** Resolved max pods for the instance type. */
  maxPods?: number;
  instanceStorePolicy?: 'RAID0';
}

/** What the kubelet will actually run with, read from final userData. */
export interface EffectiveKubeletConfig {
  taints: Taint[];
  labels: Record<string, string>;
  maxPods?: number;
  kubeReserved: Record<string, string>;
  systemReserved: Record<string, string>;
  evictionHard: Record<string, string>;
  evictionSoft: Record<string, string>;
  clusterDNS: string[];
  /** `external` etc. */
  cloudProvider?: string;
  /** Cluster name the node joins, when the userData names one. */
  clusterName?: string;
  /** What the boot would complain about; a non-empty list may mean the node never joins. */
  problems: string[];
  /** False when the boot fails before the kubelet registers (the node never joins). */
  joins: boolean;
}

/** Facts about the machine that bootstrap scripts read at boot (optional; used for reservations and max pods). */
export interface NodeFacts {
  vcpus?: number;
  /** ENI-limited max pods of the instance type (what /etc/eks/eni-max-pods.txt says). */
  eniMaxPods?: number;
}

/** One lint finding. */
export interface LintFinding {
  severity: 'error' | 'warning' | 'info';
  /** Stable code, e.g. BOOTSTRAP_UNRECOGNISED_OPTION. */
  code: string;
  /** 1-based MIME part, line within the part (or whole text), YAML document. */
  location: { part?: number; line?: number; document?: number };
  message: string;
  fix: string;
}

/** The few EC2NodeClass fields the bootstrap library reads. */
export interface EC2NodeClassLike {
  metadata?: { name?: string };
  spec: {
    amiFamily?: string;
    userData?: string;
    kubelet?: KubeletSettings;
    amiSelectorTerms?: { alias?: string }[];
  };
}

/** The few NodePool fields the bootstrap library reads. */
export interface NodePoolLike {
  metadata?: { name?: string };
  spec: {
    template: {
      metadata?: { labels?: Record<string, string> };
      spec: {
        taints?: Taint[];
        startupTaints?: Taint[];
        nodeClassRef?: { name?: string; kind?: string; group?: string };
      };
    };
  };
}
