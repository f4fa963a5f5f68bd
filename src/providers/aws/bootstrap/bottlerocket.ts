import { parse, stringify } from 'smol-toml';
import type { Taint } from '../../../api/index.js';
import { applyConfig, eksDefaults, fail, type KubeletState } from './kubelet-state.js';
import { labelError } from './label-strings.js';
import { isObj, type Obj } from './nodeconfig.js';
import { InvalidUserDataError, clusterDnsIp, effectiveMaxPods, requiredLabels, requiredTaints } from './required.js';
import { parseTaint, unionTaints } from './taint-strings.js';
import type { NodeFacts, UserDataInput } from './types.js';

/** A TOML parse result. */
export type TomlResult = { ok: true; value: Obj } | { ok: false; error: string };

/** Parses Bottlerocket TOML userData. Never throws. */
export function parseToml(text: string): TomlResult {
  try {
    return { ok: true, value: parse(text) as Obj };
  } catch (e: unknown) {
    return { ok: false, error: e instanceof Error ? (e.message.split('\n')[0] ?? e.message) : String(e) };
  }
}

/** `settings.kubernetes` of a parsed document (empty when absent). */
export function kubernetesSettings(doc: Obj): Obj {
  const settings = isObj(doc.settings) ? doc.settings : {};
  return isObj(settings.kubernetes) ? settings.kubernetes : {};
}

/** One `node-taints` entry parsed: Bottlerocket writes `key = ["value:Effect", …]` (or one string). */
export interface TaintEntry {
  text: string;
  taint?: Taint;
  error?: string;
}

/** Reads `settings.kubernetes.node-taints`. */
export function readNodeTaints(k8s: Obj): TaintEntry[] {
  const raw = k8s['node-taints'];
  if (!isObj(raw)) return [];
  const out: TaintEntry[] = [];
  for (const [key, v] of Object.entries(raw)) {
    const values = Array.isArray(v) ? v.map(String) : [String(v)];
    for (const ve of values) {
      const colon = ve.lastIndexOf(':');
      const value = colon < 0 ? ve : ve.slice(0, colon);
      const text = `${key}${value ? `=${value}` : ''}${colon < 0 ? '' : ve.slice(colon)}`;
      const parsed = parseTaint(text);
      out.push(parsed.ok ? { text, taint: parsed.value } : { text, error: parsed.error });
    }
  }
  return out;
}

function toNodeTaints(taints: readonly Taint[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of taints) (out[t.key] ??= []).push(`${t.value ?? ''}:${t.effect}`);
  return out;
}

function stringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObj(v)) for (const [k, val] of Object.entries(v)) out[k] = String(val);
  return out;
}

function applyKubelet(k8s: Obj, input: UserDataInput): void {
  const k = input.kubelet ?? {};
  const maxPods = effectiveMaxPods(input);
  if (maxPods !== undefined) k8s['max-pods'] = maxPods;
  const dns = clusterDnsIp(input);
  if (dns) k8s['cluster-dns-ip'] = dns;
  if (k.systemReserved) k8s['system-reserved'] = k.systemReserved;
  if (k.kubeReserved) k8s['kube-reserved'] = k.kubeReserved;
  if (k.evictionHard) k8s['eviction-hard'] = k.evictionHard;
  if (k.evictionSoft) k8s['eviction-soft'] = k.evictionSoft;
  if (k.evictionSoftGracePeriod) k8s['eviction-soft-grace-period'] = k.evictionSoftGracePeriod;
  if (k.evictionMaxPodGracePeriod !== undefined) k8s['eviction-max-pod-grace-period'] = k.evictionMaxPodGracePeriod;
  if (k.imageGCHighThresholdPercent !== undefined)
    k8s['image-gc-high-threshold-percent'] = String(k.imageGCHighThresholdPercent);
  if (k.imageGCLowThresholdPercent !== undefined)
    k8s['image-gc-low-threshold-percent'] = String(k.imageGCLowThresholdPercent);
  if (k.cpuCFSQuota !== undefined) k8s['cpu-cfs-quota-enforced'] = k.cpuCFSQuota;
}

/**
 * Bottlerocket userData: the user's TOML with Tenon's `settings.kubernetes` merged in. Cluster settings and
 * kubelet settings are Tenon's; node-labels merge (Tenon's win); node-taints are the union of the user's and
 * the required ones (where Karpenter replaces the user's, SCENARIOS.md S2).
 */
export function generateBottlerocket(input: UserDataInput): string {
  const parsed = parseToml(input.userData ?? '');
  if (!parsed.ok) throw new InvalidUserDataError(`userData is not valid TOML: ${parsed.error}`);
  const doc = parsed.value;
  const settings: Obj = isObj(doc.settings) ? doc.settings : {};
  doc.settings = settings;
  const k8s: Obj = isObj(settings.kubernetes) ? settings.kubernetes : {};
  settings.kubernetes = k8s;
  k8s['cluster-name'] = input.cluster.name;
  k8s['api-server'] = input.cluster.endpoint;
  k8s['cluster-certificate'] = input.cluster.caBundle;
  k8s['node-labels'] = { ...stringRecord(k8s['node-labels']), ...requiredLabels(input.labels) };
  const userTaints = readNodeTaints(k8s).flatMap((e) => (e.taint ? [e.taint] : []));
  k8s['node-taints'] = toNodeTaints(unionTaints(userTaints, requiredTaints(input)));
  applyKubelet(k8s, input);
  // Tenon nodes join no Auto Scaling group, so waiting for one would block the kubelet.
  if (isObj(settings.autoscaling) && settings.autoscaling['should-wait'] !== undefined)
    settings.autoscaling['should-wait'] = false;
  if (input.instanceStorePolicy === 'RAID0') {
    const cmds: Obj = isObj(settings['bootstrap-commands']) ? settings['bootstrap-commands'] : {};
    cmds['000-mount-instance-storage'] = {
      commands: [
        ['apiclient', 'ephemeral-storage', 'init'],
        [
          'apiclient',
          'ephemeral-storage',
          'bind',
          '--dirs',
          '/var/lib/containerd',
          '/var/lib/kubelet',
          '/var/log/pods',
        ],
      ],
      mode: 'always',
      essential: true,
    };
    settings['bootstrap-commands'] = cmds;
  }
  return stringify(doc);
}

function applyTaintsAndLabels(state: KubeletState, k8s: Obj): void {
  const entries = readNodeTaints(k8s);
  for (const e of entries) if (e.error) fail(state, `Bottlerocket rejects settings.kubernetes.node-taints: ${e.error}`);
  state.taints = entries.flatMap((e) => (e.taint ? [e.taint] : []));
  const labels = stringRecord(k8s['node-labels']);
  for (const [key, value] of Object.entries(labels)) {
    const bad = labelError(key, value);
    if (bad) fail(state, `Bottlerocket rejects settings.kubernetes.node-labels: ${bad}`);
  }
  state.labels = labels;
}

/** The kubelet's view of Bottlerocket TOML userData. */
export function bottlerocketView(text: string, facts: NodeFacts): KubeletState {
  const state = eksDefaults(facts);
  const parsed = parseToml(text);
  if (!parsed.ok) {
    fail(
      state,
      `Bottlerocket cannot parse the TOML userData (${parsed.error}); its settings are not applied and the node never joins`,
    );
    return state;
  }
  const k8s = kubernetesSettings(parsed.value);
  for (const key of ['cluster-name', 'api-server', 'cluster-certificate']) {
    if (!k8s[key]) fail(state, `settings.kubernetes.${key} is missing, so the kubelet cannot join the cluster`);
  }
  if (typeof k8s['cluster-name'] === 'string') state.clusterName = k8s['cluster-name'];
  applyTaintsAndLabels(state, k8s);
  applyConfig(state, {
    maxPods: k8s['max-pods'],
    kubeReserved: k8s['kube-reserved'],
    systemReserved: k8s['system-reserved'],
    evictionHard: k8s['eviction-hard'],
    evictionSoft: k8s['eviction-soft'],
  });
  const dns = k8s['cluster-dns-ip'];
  if (dns !== undefined) state.clusterDNS = Array.isArray(dns) ? dns.map(String) : [String(dns)];
  if (typeof k8s['cloud-provider'] === 'string') state.cloudProvider = k8s['cloud-provider'];
  return state;
}
