/**
 * Capacity, overhead and allocatable of an instance type, with the upstream Karpenter AWS formulas:
 * VM memory overhead percent (plus Graviton's 64 MiB CMA), kube-reserved CPU tiers and memory
 * `11 × pods + 255Mi`, 1Gi kube-reserved storage, eviction `memory.available<100Mi` and
 * `nodefs.available<10%`, ENI-limited max pods, and the EC2NodeClass kubelet overrides.
 */
import type { NetworkInterface } from '../../../api/index.js';
import type { AmiFamily, KubeletSettings } from '../bootstrap/index.js';
import type { BlockDeviceMapping, InstanceTypeInfo } from '../ports/index.js';
import { defaultBlockDevices, ephemeralDevice, familyFlags } from './ami-family.js';
import { gib, mib, parseAmounts, subtract, type Amounts } from './quantities.js';

/** The settings (from the EC2NodeClass and the operator) that shape capacity and overhead. */
export interface OverheadSettings {
  family: AmiFamily;
  kubelet?: KubeletSettings;
  /** EC2NodeClass `spec.blockDeviceMappings`, as launched. */
  blockDeviceMappings?: BlockDeviceMapping[];
  /** EC2NodeClass `spec.rootVolume` mapping's size when set (GiB). */
  rootVolumeGiB?: number;
  instanceStorePolicy?: 'RAID0';
  /** Share of memory the hypervisor and OS keep (Karpenter's `vmMemoryOverheadPercent`, default 0.075). */
  vmMemoryOverheadPercent: number;
  /** ENIs kept out of the max-pods count (Karpenter's `reservedENIs`, default 0). */
  reservedEnis: number;
  /** EC2NodeClass `spec.networkInterfaces`: EFA-only interfaces take ENIs and set the EFA count. */
  networkInterfaces?: NetworkInterface[];
  /** EC2NodeClass `spec.ipPrefixCount`: above 0, the primary interface gets /28 prefixes (prefix delegation). */
  ipPrefixCount?: number;
}

/** Capacity and the three overhead parts of one instance type. */
export interface ComputedResources {
  capacity: Amounts;
  kubeReserved: Amounts;
  systemReserved: Amounts;
  evictionThreshold: Amounts;
  allocatable: Amounts;
}

/** Addresses in one /28 IPv4 prefix (prefix delegation). */
const AddressesPerPrefix = 16;

/**
 * ENI-limited max pods: `enis × (IPv4 per ENI − 1) + 2` over the default card's usable ENIs (EFA-only interfaces on
 * card 0 take an ENI without addresses). With prefix delegation each secondary address slot holds a /28 prefix,
 * `enis × (IPv4 per ENI − 1) × 16 + 2`, capped at 110 below 30 vCPUs and 250 above (the EKS max-pods calculator).
 */
export function eniLimitedPods(
  info: InstanceTypeInfo,
  reservedEnis: number,
  net: Pick<OverheadSettings, 'networkInterfaces' | 'ipPrefixCount'> = {},
): number {
  const efaOnly = (net.networkInterfaces ?? []).filter(
    (n) => n.networkCardIndex === 0 && n.interfaceType === 'efa-only',
  ).length;
  const usable = Math.max(info.maxNetworkInterfaces - reservedEnis - efaOnly, 0);
  if (usable === 0) return 0;
  if ((net.ipPrefixCount ?? 0) <= 0) return usable * (info.ipv4AddressesPerInterface - 1) + 2;
  const delegated = usable * (info.ipv4AddressesPerInterface - 1) * AddressesPerPrefix + 2;
  return Math.min(delegated, info.vcpus < 30 ? 110 : 250);
}

/** EFA devices: the class's EFA-only interfaces when it lists interfaces, else all the type has. */
export function efaCountOf(info: InstanceTypeInfo, networkInterfaces: NetworkInterface[] | undefined): number {
  if (networkInterfaces === undefined) return info.efaCount ?? 0;
  return networkInterfaces.filter((n) => n.interfaceType === 'efa-only').length;
}

/** Max pods: the kubelet override, else ENI-limited (or 110), capped by `podsPerCore × vCPUs`. */
export function maxPods(info: InstanceTypeInfo, s: OverheadSettings): number {
  const flags = familyFlags[s.family];
  let count =
    s.kubelet?.maxPods ?? (flags.supportsEniLimitedPodDensity ? eniLimitedPods(info, s.reservedEnis, s) : 110);
  const perCore = s.kubelet?.podsPerCore ?? 0;
  if (perCore > 0 && flags.podsPerCoreEnabled) count = Math.min(perCore * info.vcpus, count);
  return count;
}

function memoryBytes(info: InstanceTypeInfo, overheadPercent: number): number {
  // Gravitons keep 64 MiB of CMA memory the OS cannot use.
  const size = info.architectures[0] === 'arm64' ? info.memoryMiB - 64 : info.memoryMiB;
  return mib(size - Math.ceil(size * overheadPercent));
}

function ephemeralBytes(info: InstanceTypeInfo, s: OverheadSettings): number {
  if (s.instanceStorePolicy === 'RAID0' && info.localNvmeGb !== undefined) return info.localNvmeGb * 1e9;
  if (s.rootVolumeGiB !== undefined) return gib(s.rootVolumeGiB);
  const devices =
    s.blockDeviceMappings && s.blockDeviceMappings.length > 0 ? s.blockDeviceMappings : defaultBlockDevices(s.family);
  if (s.family === 'Custom') return gib(devices[devices.length - 1]?.volumeSizeGiB ?? 20);
  const device =
    devices.find((d) => d.deviceName === ephemeralDevice(s.family)) ??
    defaultBlockDevices(s.family).find((d) => d.deviceName === ephemeralDevice(s.family));
  return gib(device?.volumeSizeGiB ?? 20);
}

function acceleratorCounts(info: InstanceTypeInfo): Amounts {
  const out: Amounts = {};
  const add = (k: string, n: number): void => {
    out[k] = (out[k] ?? 0) + n;
  };
  for (const g of info.gpus) {
    if (g.manufacturer === 'nvidia') add('nvidia.com/gpu', g.count);
    else if (g.manufacturer === 'amd') add('amd.com/gpu', g.count);
    else if (g.manufacturer === 'habana') add('habana.ai/gaudi', g.count);
  }
  for (const a of info.accelerators) {
    if (a.manufacturer !== 'aws') continue;
    add('aws.amazon.com/neuron', a.count);
    add('aws.amazon.com/neuroncore', a.count * (a.coreCount ?? 0));
  }
  return out;
}

/** Capacity of the type as the node will report it. */
export function capacityOf(info: InstanceTypeInfo, s: OverheadSettings): Amounts {
  return {
    cpu: info.vcpus * 1000,
    memory: memoryBytes(info, s.vmMemoryOverheadPercent),
    'ephemeral-storage': ephemeralBytes(info, s),
    pods: maxPods(info, s),
    'vpc.amazonaws.com/pod-eni': info.podEniCount ?? 0,
    'vpc.amazonaws.com/efa': efaCountOf(info, s.networkInterfaces),
    ...acceleratorCounts(info),
  };
}

const cpuTiers = [
  { start: 0, end: 1000, share: 0.06 },
  { start: 1000, end: 2000, share: 0.01 },
  { start: 2000, end: 4000, share: 0.005 },
  { start: 4000, end: 2 ** 31, share: 0.0025 },
];

/** Kube-reserved: CPU by tiers of the cores, memory `11 × pods + 255Mi`, 1Gi of storage; then the overrides. */
export function kubeReservedOf(info: InstanceTypeInfo, s: OverheadSettings): Amounts {
  const pods = familyFlags[s.family].usesEniLimitedMemoryOverhead
    ? eniLimitedPods(info, s.reservedEnis, { networkInterfaces: s.networkInterfaces })
    : maxPods(info, s);
  const milli = info.vcpus * 1000;
  let cpu = 0;
  for (const t of cpuTiers) {
    if (milli < t.start) continue;
    cpu += Math.floor((Math.min(milli, t.end) - t.start) * t.share);
  }
  return { cpu, memory: mib(11 * pods + 255), 'ephemeral-storage': gib(1), ...parseAmounts(s.kubelet?.kubeReserved) };
}

function evictionSignal(capacity: number, value: string, name: string): number {
  if (value.endsWith('%')) {
    const p = Number(value.slice(0, -1));
    // 100% disables the threshold (kubelet semantics).
    return Math.ceil((capacity / 100) * (p === 100 ? 0 : p));
  }
  return parseAmounts({ [name]: value })[name] ?? 0;
}

/** Eviction thresholds: 100Mi memory and 10% of storage, unless evictionHard/evictionSoft say more. */
export function evictionThresholdOf(capacity: Amounts, s: OverheadSettings): Amounts {
  const memory = capacity.memory ?? 0;
  const storage = capacity['ephemeral-storage'] ?? 0;
  const base: Amounts = { memory: mib(100), 'ephemeral-storage': Math.ceil((storage / 100) * 10) };
  const signals = [
    s.kubelet?.evictionHard,
    familyFlags[s.family].evictionSoftEnabled ? s.kubelet?.evictionSoft : undefined,
  ];
  const override: Amounts = {};
  for (const m of signals) {
    if (!m) continue;
    const mem = m['memory.available'];
    const fs = m['nodefs.available'];
    if (mem !== undefined) override.memory = Math.max(override.memory ?? 0, evictionSignal(memory, mem, 'memory'));
    if (fs !== undefined)
      override['ephemeral-storage'] = Math.max(
        override['ephemeral-storage'] ?? 0,
        evictionSignal(storage, fs, 'ephemeral-storage'),
      );
  }
  return { ...base, ...override };
}

/** Everything about one type's resources. */
export function computeResources(info: InstanceTypeInfo, s: OverheadSettings): ComputedResources {
  const capacity = capacityOf(info, s);
  const kubeReserved = kubeReservedOf(info, s);
  const systemReserved = parseAmounts(s.kubelet?.systemReserved);
  const evictionThreshold = evictionThresholdOf(capacity, s);
  return {
    capacity,
    kubeReserved,
    systemReserved,
    evictionThreshold,
    allocatable: subtract(capacity, kubeReserved, systemReserved, evictionThreshold),
  };
}
