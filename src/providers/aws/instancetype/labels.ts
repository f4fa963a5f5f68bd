/** The well-known labels of an instance type, derived from DescribeInstanceTypes facts as Karpenter does. */
import { Labels } from '../../../api/index.js';
import type { InstanceTypeInfo } from '../ports/index.js';

// `m5.large` → category m, generation 5; `u-6tb1.metal` → category u, generation 1.
const scheme = /^([a-z]+)(-[0-9]+tb)?([0-9]+).*\./;

function set(out: Record<string, string>, key: string, value: string | number | undefined): void {
  if (value !== undefined && value !== '') out[key] = String(value);
}

function nameLabels(out: Record<string, string>, name: string): void {
  const m = scheme.exec(name);
  if (m) {
    set(out, Labels.instanceCategory, m[1]);
    set(out, Labels.instanceGeneration, m[3]);
  }
  const [family, size] = name.split('.');
  if (family !== undefined && size !== undefined) {
    set(out, Labels.instanceFamily, family);
    set(out, Labels.instanceSize, size);
  }
  set(out, Labels.instanceCapabilityFlex, String((family ?? '').includes('flex')));
}

function acceleratorLabels(out: Record<string, string>, info: InstanceTypeInfo): void {
  const [gpu, ...moreGpus] = info.gpus;
  if (gpu && moreGpus.length === 0) {
    set(out, Labels.instanceGpuName, gpu.name);
    set(out, Labels.instanceGpuManufacturer, gpu.manufacturer);
    set(out, Labels.instanceGpuCount, gpu.count);
    set(out, Labels.instanceGpuMemory, gpu.memoryMiB);
  }
  const [acc, ...moreAccs] = info.accelerators;
  if (acc && moreAccs.length === 0) {
    set(out, Labels.instanceAcceleratorName, acc.name);
    set(out, Labels.instanceAcceleratorManufacturer, acc.manufacturer);
    set(out, Labels.instanceAcceleratorCount, acc.count);
  }
}

/**
 * Single-valued labels a node of this type carries (zone and capacity type come from the offering); a Windows
 * family's nodes also carry its `node.kubernetes.io/windows-build`, Linux ones none (Karpenter: DoesNotExist).
 */
export function instanceTypeLabels(
  info: InstanceTypeInfo,
  os: 'linux' | 'windows',
  windowsBuild?: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  set(out, Labels.instanceType, info.instanceType);
  set(out, Labels.arch, info.architectures[0] === 'arm64' ? 'arm64' : 'amd64');
  set(out, Labels.os, os);
  if (os === 'windows') set(out, Labels.windowsBuild, windowsBuild);
  set(out, Labels.instanceCpu, info.vcpus);
  set(out, Labels.instanceCpuManufacturer, info.cpuManufacturer);
  set(out, Labels.instanceCpuSustainedClockSpeedMhz, info.sustainedClockSpeedMhz);
  set(out, Labels.instanceMemory, info.memoryMiB);
  set(out, Labels.instanceEbsBandwidth, info.ebsBandwidthMbps);
  set(out, Labels.instanceNetworkBandwidth, info.networkBandwidthMbps);
  set(out, Labels.instanceHypervisor, info.hypervisor);
  set(out, Labels.instanceEncryptionInTransitSupported, String(info.encryptionInTransitSupported));
  set(out, Labels.instanceLocalNvme, info.localNvmeGb);
  nameLabels(out, info.instanceType);
  acceleratorLabels(out, info);
  return out;
}
