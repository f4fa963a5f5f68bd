import { stringify } from 'yaml';
import type { Taint } from '../../../api/index.js';
import { formatLabels } from './label-strings.js';
import { NodeConfigType, serializeMime, type MimeEntry } from './mime.js';
import { configOf, flagsOf, mergeNodeConfigs, readNodeConfigs, parseAl2023Parts, type Obj } from './nodeconfig.js';
import { InvalidUserDataError, clusterDnsIp, effectiveMaxPods, requiredLabels, requiredTaints } from './required.js';
import { splitExtraArgs } from './bootstrap-calls.js';
import { formatTaint, unionTaints } from './taint-strings.js';
import { takeRegistrationFlags } from './al2-gen.js';
import { applyConfig, eksDefaults } from './kubelet-state.js';
import type { UserDataInput } from './types.js';

/** The taints the user's NodeConfig documents alone would register with, and whether flags set them. */
function userRegistration(specs: readonly Obj[]): {
  taints: Taint[];
  viaFlags: boolean;
  labels: Record<string, string>;
} {
  const merged = mergeNodeConfigs(specs);
  const words = flagsOf(merged).flatMap((f) => splitExtraArgs(f));
  const fromFlags = takeRegistrationFlags(words);
  const viaFlags = words.some((w) => w.startsWith('--register-with-taints'));
  const state = eksDefaults({});
  applyConfig(state, configOf(merged));
  return { taints: viaFlags ? fromFlags.taints : state.taints, viaFlags, labels: fromFlags.labels };
}

function kubeletConfig(input: UserDataInput, taints: Taint[]): Obj {
  const k = input.kubelet ?? {};
  const config: Obj = {};
  const dns = clusterDnsIp(input);
  if (dns) config.clusterDNS = [dns];
  if (k.cpuCFSQuota !== undefined) config.cpuCFSQuota = k.cpuCFSQuota;
  if (k.evictionHard) config.evictionHard = k.evictionHard;
  if (k.evictionMaxPodGracePeriod !== undefined) config.evictionMaxPodGracePeriod = k.evictionMaxPodGracePeriod;
  if (k.evictionSoft) config.evictionSoft = k.evictionSoft;
  if (k.evictionSoftGracePeriod) config.evictionSoftGracePeriod = k.evictionSoftGracePeriod;
  if (k.imageGCHighThresholdPercent !== undefined) config.imageGCHighThresholdPercent = k.imageGCHighThresholdPercent;
  if (k.imageGCLowThresholdPercent !== undefined) config.imageGCLowThresholdPercent = k.imageGCLowThresholdPercent;
  if (k.kubeReserved) config.kubeReserved = k.kubeReserved;
  const maxPods = effectiveMaxPods(input);
  if (maxPods !== undefined) config.maxPods = maxPods;
  if (k.podsPerCore !== undefined) config.podsPerCore = k.podsPerCore;
  config.registerWithTaints = taints.map((t) =>
    t.value ? { key: t.key, value: t.value, effect: t.effect } : { key: t.key, effect: t.effect },
  );
  if (k.systemReserved) config.systemReserved = k.systemReserved;
  return config;
}

/** Tenon's NodeConfig document: cluster details, kubelet config with the union of taints, labels as a flag. */
export function tenonNodeConfig(input: UserDataInput, user: ReturnType<typeof userRegistration>): string {
  const taints = unionTaints(user.taints, requiredTaints(input));
  const cluster: Obj = {
    name: input.cluster.name,
    apiServerEndpoint: input.cluster.endpoint,
    certificateAuthority: input.cluster.caBundle,
  };
  if (input.cluster.serviceCidr) cluster.cidr = input.cluster.serviceCidr;
  const flags: string[] = [];
  const labels = requiredLabels(input.labels);
  if (Object.keys(labels).length > 0) flags.push(`--node-labels=${formatLabels(labels)}`);
  // A --register-with-taints flag in the user's documents beats the config file, so Tenon's last document
  // repeats the union as a flag: the last flag wins (SCENARIOS.md S2).
  if (user.viaFlags) flags.push(`--register-with-taints=${taints.map(formatTaint).join(',')}`);
  const spec: Obj = { cluster, kubelet: { config: kubeletConfig(input, taints), ...(flags.length ? { flags } : {}) } };
  if (input.instanceStorePolicy === 'RAID0') spec.instance = { localStorage: { strategy: 'RAID0' } };
  const doc = { apiVersion: 'node.eks.aws/v1alpha1', kind: 'NodeConfig', spec };
  return `# Tenon generated NodeConfig\n${stringify(doc, { lineWidth: 0 })}`;
}

/** AL2023 userData: the user's parts first, Tenon's NodeConfig last (nodeadm merges in order, later wins). */
export function generateAl2023(input: UserDataInput): string {
  const user = input.userData ? parseAl2023Parts(input.userData) : undefined;
  if (user && user.parts.length === 0 && user.problems.length > 0) {
    throw new InvalidUserDataError(`userData is not a readable MIME archive: ${user.problems.join('; ')}`);
  }
  const parts = user?.parts ?? [];
  const specs = readNodeConfigs(parts).flatMap((d) => (d.spec ? [d.spec] : []));
  const entries: MimeEntry[] = parts.map((p) => ({ contentType: p.contentType, content: p.content }));
  entries.push({ contentType: NodeConfigType, content: tenonNodeConfig(input, userRegistration(specs)) });
  return serializeMime(entries);
}
