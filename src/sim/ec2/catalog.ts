/**
 * The simulated account's instance-type catalog: the project's copy of the real us-east-1 catalog
 * (data/aws-instance-types.json), turned into the facts DescribeInstanceTypes reports.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AcceleratorInfo, Ec2Architecture, InstanceTypeInfo } from '../../providers/aws/ports/index.js';

/** One entry of data/aws-instance-types.json. */
export interface CatalogEntry {
  name: string;
  family: string;
  /** Instance family category letter(s): c, m, r, t… */
  category: string;
  generation: number;
  arch: string;
  os: string;
  vcpu: number;
  memoryMiB: number;
  labels: Record<string, string>;
  /** Published allocatable (AL2023, default block devices, ENI-limited pods). */
  allocatable: Record<string, string>;
  onDemandPriceUSD: number | null;
}

interface CatalogFile {
  region: string;
  instanceTypes: CatalogEntry[];
}

// Source runs from src/sim/ec2, a build from dist/src/sim/ec2: the data folder sits at the package root.
const candidates = ['../../../data/aws-instance-types.json', '../../../../data/aws-instance-types.json'];

let loaded: CatalogEntry[] | undefined;

/** The shipped catalog (read once). */
export function loadCatalog(): CatalogEntry[] {
  if (loaded) return loaded;
  for (const rel of candidates) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (!existsSync(path)) continue;
    loaded = (JSON.parse(readFileSync(path, 'utf8')) as CatalogFile).instanceTypes;
    return loaded;
  }
  throw new Error('data/aws-instance-types.json not found next to the package');
}

const realIpsPerEni = new Set([2, 4, 6, 10, 12, 15, 20, 30, 50]);

/**
 * ENI count and IPv4 addresses per ENI that give `pods` ENI-limited pods (`enis × (ips − 1) + 2`). The
 * catalog publishes max pods but not the ENI limits, so the simulator factors them back out, preferring
 * the per-ENI address counts EC2 really uses.
 */
export function eniLimits(pods: number): { enis: number; ips: number } {
  const n = pods - 2;
  let fallback: { enis: number; ips: number } | undefined;
  for (let enis = Math.min(n, 64); enis >= 1; enis--) {
    if (n % enis !== 0) continue;
    const ips = n / enis + 1;
    if (ips > 50) continue;
    if (realIpsPerEni.has(ips)) return { enis, ips };
    fallback ??= { enis, ips };
  }
  return fallback ?? { enis: 1, ips: n + 1 };
}

function num(labels: Record<string, string>, key: string): number | undefined {
  const v = labels[`karpenter.k8s.aws/${key}`];
  return v === undefined ? undefined : Number(v);
}

function gpus(e: CatalogEntry): AcceleratorInfo[] {
  const name = e.labels['karpenter.k8s.aws/instance-gpu-name'];
  if (name === undefined) return [];
  return [
    {
      name,
      manufacturer: e.labels['karpenter.k8s.aws/instance-gpu-manufacturer'] ?? '',
      count: num(e.labels, 'instance-gpu-count') ?? 0,
      memoryMiB: num(e.labels, 'instance-gpu-memory') ?? 0,
    },
  ];
}

function accelerators(e: CatalogEntry): AcceleratorInfo[] {
  const name = e.labels['karpenter.k8s.aws/instance-accelerator-name'];
  if (name === undefined) return [];
  const count = num(e.labels, 'instance-accelerator-count') ?? 0;
  const cores = Number(e.allocatable['aws.amazon.com/neuroncore'] ?? 0);
  return [
    {
      name,
      manufacturer: e.labels['karpenter.k8s.aws/instance-accelerator-manufacturer'] ?? '',
      count,
      ...(cores > 0 && count > 0 ? { coreCount: cores / count } : {}),
    },
  ];
}

function optionalCount(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/**
 * Facts the catalog does not publish, derived by rules close to EC2's: a network card per 100 Gbps at 200 Gbps
 * and above (the default card takes the ENIs, the others two interfaces each); Nitro Enclaves on Nitro virtual
 * types of at least 4 vCPUs (2 on Graviton) other than burstable and Mac; nested virtualization on the
 * 8th-generation Intel virtual types; burstable and Mac types cannot join cluster placement groups.
 */
function featureFacts(
  e: CatalogEntry,
  enis: number,
): Pick<
  InstanceTypeInfo,
  'networkCards' | 'nitroEnclavesSupported' | 'processorFeatures' | 'placementGroupStrategies'
> {
  const bandwidth = num(e.labels, 'instance-network-bandwidth') ?? 0;
  const cardCount = bandwidth >= 200_000 ? Math.floor(bandwidth / 100_000) : 1;
  const networkCards = Array.from({ length: cardCount }, (_, index) => ({
    index,
    maxInterfaces: index === 0 ? enis : 2,
  }));
  const metal = e.name.includes('.metal');
  const burstableOrMac = e.category === 't' || e.family.startsWith('mac');
  const nitro = e.labels['karpenter.k8s.aws/instance-hypervisor'] === 'nitro';
  const intel = e.labels['karpenter.k8s.aws/instance-cpu-manufacturer'] === 'intel';
  return {
    networkCards,
    nitroEnclavesSupported: nitro && !metal && !burstableOrMac && e.vcpu >= (e.arch === 'arm64' ? 2 : 4),
    processorFeatures: intel && !metal && e.generation >= 8 ? ['nested-virtualization'] : [],
    placementGroupStrategies: burstableOrMac ? ['partition', 'spread'] : ['cluster', 'partition', 'spread'],
  };
}

/** The DescribeInstanceTypes facts of a catalog entry. */
export function toInstanceTypeInfo(e: CatalogEntry): InstanceTypeInfo {
  const { enis, ips } = eniLimits(Number(e.allocatable.pods ?? '110'));
  const arch: Ec2Architecture = e.arch === 'arm64' ? 'arm64' : 'x86_64';
  return {
    instanceType: e.name,
    vcpus: e.vcpu,
    memoryMiB: e.memoryMiB,
    architectures: [arch],
    cpuManufacturer: e.labels['karpenter.k8s.aws/instance-cpu-manufacturer'],
    sustainedClockSpeedMhz: num(e.labels, 'instance-cpu-sustained-clock-speed-mhz'),
    hypervisor: e.labels['karpenter.k8s.aws/instance-hypervisor'],
    bareMetal: e.name.includes('.metal'),
    maxNetworkInterfaces: enis,
    ipv4AddressesPerInterface: ips,
    podEniCount: optionalCount(e.allocatable['vpc.amazonaws.com/pod-eni']),
    efaCount: optionalCount(e.allocatable['vpc.amazonaws.com/efa']),
    gpus: gpus(e),
    accelerators: accelerators(e),
    ebsBandwidthMbps: num(e.labels, 'instance-ebs-bandwidth'),
    networkBandwidthMbps: num(e.labels, 'instance-network-bandwidth'),
    localNvmeGb: num(e.labels, 'instance-local-nvme'),
    encryptionInTransitSupported: e.labels['karpenter.k8s.aws/instance-encryption-in-transit-supported'] === 'true',
    supportedUsageClasses:
      e.name.startsWith('u-') || (e.name.includes('metal') && e.name.startsWith('mac'))
        ? ['on-demand']
        : ['on-demand', 'spot'],
    ...featureFacts(e, enis),
  };
}
