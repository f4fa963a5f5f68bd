/** Reads an EC2NodeClass spec into the settings the provider launches and sizes instances with. */
import { checkKubelet, type EC2NodeClass, type EC2NodeClassSpec } from '../../../api/index.js';
import { familyOf, type AmiFamily, type KubeletSettings } from '../bootstrap/index.js';
import { defaultBlockDevices } from '../instancetype/ami-family.js';
import { parseAmounts } from '../instancetype/quantities.js';
import type { BlockDeviceMapping, MetadataOptions } from '../ports/index.js';

/** An EC2NodeClass's spec, or an empty one. */
export function specOf(nodeClass: EC2NodeClass): Partial<EC2NodeClassSpec> {
  return nodeClass.spec ?? {};
}

/** The AMI family: `spec.amiFamily`, else the alias's family, else AL2023 (Karpenter's default). */
export function amiFamilyOf(nodeClass: EC2NodeClass): AmiFamily {
  const spec = specOf(nodeClass);
  return familyOf({ spec: { amiFamily: spec.amiFamily, amiSelectorTerms: spec.amiSelectorTerms ?? [] } }) ?? 'AL2023';
}

/**
 * The kubelet settings of the class, when they pass Karpenter's rules. The CRD accepts any kubelet map, so a bad
 * one is ignored here (sizing falls back to defaults) and reported as ValidationSucceeded=False.
 */
export function kubeletOf(nodeClass: EC2NodeClass): KubeletSettings | undefined {
  const checked = checkKubelet(specOf(nodeClass).kubelet);
  return checked.ok ? (checked.kubelet as KubeletSettings | undefined) : undefined;
}

function gibOf(size: string | undefined): number | undefined {
  if (size === undefined) return undefined;
  const bytes = parseAmounts({ storage: size }).storage ?? 0;
  return Math.ceil(bytes / 2 ** 30);
}

/** Block devices as launched: the class's, else the family's defaults. */
export function blockDevicesOf(nodeClass: EC2NodeClass): BlockDeviceMapping[] {
  const mappings = specOf(nodeClass).blockDeviceMappings;
  if (!mappings || mappings.length === 0) return defaultBlockDevices(amiFamilyOf(nodeClass));
  return mappings.map((m) => ({
    deviceName: m.deviceName ?? '/dev/xvda',
    volumeSizeGiB: gibOf(m.ebs?.volumeSize),
    volumeType: m.ebs?.volumeType,
    iops: m.ebs?.iops,
    throughput: m.ebs?.throughput,
    encrypted: m.ebs?.encrypted,
    kmsKeyId: m.ebs?.kmsKeyID,
    deleteOnTermination: m.ebs?.deleteOnTermination,
    snapshotId: m.ebs?.snapshotID,
  }));
}

/** The size of the mapping marked `rootVolume`, when there is one. */
export function rootVolumeGiBOf(nodeClass: EC2NodeClass): number | undefined {
  const root = specOf(nodeClass).blockDeviceMappings?.find((m) => m.rootVolume === true);
  return gibOf(root?.ebs?.volumeSize);
}

/** IMDS options, IMDSv2 (`httpTokens: required`) and a hop limit of 1 by default. */
export function metadataOptionsOf(nodeClass: EC2NodeClass): MetadataOptions {
  const m = specOf(nodeClass).metadataOptions;
  return {
    httpEndpoint: m?.httpEndpoint ?? 'enabled',
    httpTokens: m?.httpTokens ?? 'required',
    httpPutResponseHopLimit: m?.httpPutResponseHopLimit ?? 1,
    httpProtocolIpv6: m?.httpProtocolIPv6 ?? 'disabled',
  };
}

/** The class's name. */
export function nameOf(nodeClass: EC2NodeClass): string {
  return nodeClass.metadata?.name ?? '';
}
