/**
 * Machines from the simulated EC2 account: every visible instance with the userData it was launched with,
 * its type's capacity from the catalog and its AMI family read from the image name, so the kubelet boots the
 * way the real AMI would (a non-EKS image is read as a Custom AMI).
 */
import type { AmiFamily } from '../../providers/aws/bootstrap/index.js';
import { defaultBlockDevices, ephemeralDevice } from '../../providers/aws/instancetype/ami-family.js';
import type { BlockDeviceMapping } from '../../providers/aws/ports/index.js';
import { kubeletVersion, kubernetesVersionOfImage } from './kubernetes-version.js';
import type { CatalogEntry, SimEc2 } from '../ec2/index.js';
import type { SimInstance } from '../ec2/instances.js';
import type { Machine, MachineSource } from './machine.js';
import { ebsAttachLimitOf } from '../kubelet/csi-node.js';

/** The AMI family an EKS-optimized image name says, or Custom. */
export function familyOfImage(name: string | undefined): AmiFamily {
  if (!name) return 'Custom';
  if (name.startsWith('amazon-eks-node-al2023')) return 'AL2023';
  if (
    name.startsWith('amazon-eks-node-') ||
    name.startsWith('amazon-eks-arm64-node-') ||
    name.startsWith('amazon-eks-gpu-node-')
  )
    return 'AL2';
  if (name.startsWith('bottlerocket-')) return 'Bottlerocket';
  if (name.startsWith('Windows_Server-2025')) return 'Windows2025';
  if (name.startsWith('Windows_Server-2022')) return 'Windows2022';
  if (name.startsWith('Windows_Server-2019')) return 'Windows2019';
  return 'Custom';
}

/**
 * The size of the volume the kubelet's filesystem lives on, as EC2 attached it: the family's ephemeral device
 * (the root volume; Bottlerocket's data volume) from the launch's block device mappings, else the AMI's own
 * (a Custom AMI: its last mapping).
 */
export function ephemeralStorageGiB(family: AmiFamily, mappings: readonly BlockDeviceMapping[]): number {
  if (family === 'Custom') return mappings[mappings.length - 1]?.volumeSizeGiB ?? 20;
  const device = ephemeralDevice(family);
  const launched = mappings.find((m) => m.deviceName === device)?.volumeSizeGiB;
  return launched ?? defaultBlockDevices(family).find((m) => m.deviceName === device)?.volumeSizeGiB ?? 20;
}

function capacityOf(entry: CatalogEntry | undefined, ephemeralGiB: number): Record<string, string> {
  return {
    cpu: String(entry?.vcpu ?? 2),
    memory: `${entry?.memoryMiB ?? 4096}Mi`,
    pods: entry?.allocatable.pods ?? '110',
    'ephemeral-storage': `${ephemeralGiB}Gi`,
  };
}

/** Extended resources that a device plugin DaemonSet (NVIDIA, AMD, Neuron, EFA) advertises, not the kubelet. */
const devicePluginResources = [
  'nvidia.com/gpu',
  'amd.com/gpu',
  'aws.amazon.com/neuron',
  'aws.amazon.com/neuroncore',
  'vpc.amazonaws.com/efa',
];

function devicesOf(entry: CatalogEntry | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const r of devicePluginResources) {
    const v = entry?.allocatable[r];
    if (v !== undefined && v !== '0') out[r] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Items of a list by key, rebuilt when the list is replaced or grows (the catalog is fixed; images are added). */
class ByKey<T> {
  private list: readonly T[] | undefined;
  private size = -1;
  private map = new Map<string, T>();

  constructor(private readonly keyOf: (t: T) => string) {}

  /** The item of `list` with `key`. */
  get(list: readonly T[], key: string): T | undefined {
    if (list !== this.list || list.length !== this.size) {
      this.map = new Map(list.map((t) => [this.keyOf(t), t]));
      this.list = list;
      this.size = list.length;
    }
    return this.map.get(key);
  }
}

/** A MachineSource over a SimEc2 account. */
export class SimEc2Machines implements MachineSource {
  /** Wraps the account of `ec2`. */
  constructor(private readonly ec2: SimEc2) {}

  // Every machine change lists every instance (5,000 in a scale-up): a type or image is found by key, not by a scan.
  private readonly types = new ByKey<CatalogEntry>((c) => c.name);
  private readonly images = new ByKey<SimEc2['account']['images'][number]>((img) => img.imageId);

  /** Every visible instance. */
  list(): Machine[] {
    return this.ec2.account.instances.all().map((i) => this.toMachine(i));
  }

  /** The instance of `aws:///<zone>/<instance-id>`. */
  get(providerID: string): Machine | undefined {
    const id = providerID.split('/').pop() ?? '';
    const i = this.ec2.account.instances.get(id);
    return i ? this.toMachine(i) : undefined;
  }

  /** Calls `fn` on every launch and state change. */
  subscribe(fn: () => void): () => void {
    return this.ec2.account.instances.subscribe(() => fn());
  }

  private toMachine(i: SimInstance): Machine {
    const account = this.ec2.account;
    const entry = this.types.get(account.catalog, i.instanceType);
    const image = this.images.get(account.images, i.imageId);
    const pods = entry?.allocatable.pods;
    const amiFamily = familyOfImage(image?.name);
    return {
      providerID: `aws:///${i.zone}/${i.instanceId}`,
      instanceId: i.instanceId,
      nodeName: i.privateDnsName,
      instanceType: i.instanceType,
      zone: i.zone,
      region: account.region,
      arch: entry?.arch === 'arm64' ? 'arm64' : 'amd64',
      os: entry?.os ?? 'linux',
      capacityType: i.capacityType,
      capacity: capacityOf(entry, ephemeralStorageGiB(amiFamily, i.blockDeviceMappings)),
      devices: devicesOf(entry),
      userData: i.userData,
      amiFamily,
      kubeletVersion: kubeletVersion(kubernetesVersionOfImage(image?.name)),
      launchTime: i.launchTime.getTime(),
      state: i.state,
      vcpus: entry?.vcpu,
      eniMaxPods: pods !== undefined ? Number(pods) : undefined,
      privateIp: i.privateIp,
      ...(entry ? { volumeAttachLimit: ebsAttachLimitOf(entry.labels['karpenter.k8s.aws/instance-hypervisor']) } : {}),
    };
  }
}
