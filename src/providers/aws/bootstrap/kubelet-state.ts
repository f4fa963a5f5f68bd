import type { Taint, TaintEffect } from '../../../api/index.js';
import { parseLabelList } from './label-strings.js';
import { parseTaint, parseTaintList } from './taint-strings.js';
import type { EffectiveKubeletConfig, NodeFacts } from './types.js';

/** The kubelet's settings as they are being assembled from defaults, config files and flags. */
export interface KubeletState {
  taints: Taint[];
  labels: Record<string, string>;
  maxPods?: number;
  kubeReserved: Record<string, string>;
  systemReserved: Record<string, string>;
  evictionHard: Record<string, string>;
  evictionSoft: Record<string, string>;
  clusterDNS: string[];
  cloudProvider?: string;
  clusterName?: string;
  problems: string[];
  fatal: boolean;
}

/** The EKS defaults (bootstrap.sh, nodeadm and Bottlerocket agree): eviction thresholds and kube-reserved. */
export function eksDefaults(facts: NodeFacts): KubeletState {
  const maxPods = facts.eniMaxPods;
  const kubeReserved: Record<string, string> = { 'ephemeral-storage': '1Gi' };
  if (maxPods !== undefined) kubeReserved.memory = `${11 * maxPods + 255}Mi`;
  if (facts.vcpus !== undefined) kubeReserved.cpu = `${cpuMillicoresToReserve(facts.vcpus)}m`;
  return {
    taints: [],
    labels: {},
    ...(maxPods !== undefined ? { maxPods } : {}),
    kubeReserved,
    systemReserved: {},
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%' },
    evictionSoft: {},
    clusterDNS: [],
    cloudProvider: 'external',
    problems: [],
    fatal: false,
  };
}

/** The EKS CPU reservation: 6% of the first core, 1% of the second, 0.5% of the next two, 0.25% above. */
export function cpuMillicoresToReserve(vcpus: number): number {
  const total = vcpus * 1000;
  const ranges = [0, 1000, 2000, 4000, total];
  const per10k = [600, 100, 50, 25];
  let out = 0;
  per10k.forEach((pct, i) => {
    const start = ranges[i] ?? 0;
    const end = Math.min(total, ranges[i + 1] ?? total);
    if (total > start) out += Math.floor(((end - start) * pct) / 10000);
  });
  return out;
}

/** Marks the boot as failing before registration. */
export function fail(state: KubeletState, problem: string): void {
  state.problems.push(problem);
  state.fatal = true;
}

function stringMap(v: unknown): Record<string, string> | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) out[k] = String(val);
  return out;
}

function configTaints(v: unknown, state: KubeletState): Taint[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: Taint[] = [];
  for (const item of v) {
    const t = item as { key?: unknown; value?: unknown; effect?: unknown };
    const text = `${String(t.key ?? '')}${t.value ? `=${String(t.value)}` : ''}:${String(t.effect ?? '')}`;
    const parsed = parseTaint(text);
    if (!parsed.ok) fail(state, `kubelet config registerWithTaints: ${parsed.error}`);
    else out.push({ ...parsed.value, effect: parsed.value.effect as TaintEffect });
  }
  return out;
}

/** Applies a KubeletConfiguration document (the config file) over the state. */
export function applyConfig(state: KubeletState, config: Record<string, unknown>): void {
  const taints = configTaints(config.registerWithTaints, state);
  if (taints) state.taints = taints;
  if (typeof config.maxPods === 'number') state.maxPods = config.maxPods;
  state.kubeReserved = stringMap(config.kubeReserved) ?? state.kubeReserved;
  state.systemReserved = stringMap(config.systemReserved) ?? state.systemReserved;
  state.evictionHard = stringMap(config.evictionHard) ?? state.evictionHard;
  state.evictionSoft = stringMap(config.evictionSoft) ?? state.evictionSoft;
  if (Array.isArray(config.clusterDNS)) state.clusterDNS = config.clusterDNS.map(String);
}

/** A flag with its value, as the kubelet's pflag parsing reads `--name=value` or `--name value`. */
export interface KubeletFlag {
  name: string;
  value: string;
}

const valueFlags: ReadonlySet<string> = new Set([
  'register-with-taints',
  'node-labels',
  'max-pods',
  'kube-reserved',
  'system-reserved',
  'eviction-hard',
  'eviction-soft',
  'cluster-dns',
  'cloud-provider',
  'pods-per-core',
  'eviction-soft-grace-period',
  'eviction-max-pod-grace-period',
  'image-gc-high-threshold',
  'image-gc-low-threshold',
  'config',
  'kubeconfig',
  'node-ip',
  'hostname-override',
  'v',
  'provider-id',
  'container-runtime-endpoint',
  'config-dir',
]);

/** Splits kubelet arguments (already word-split) into flags. */
export function splitKubeletFlags(words: readonly string[]): KubeletFlag[] {
  const out: KubeletFlag[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    if (!w.startsWith('--')) continue;
    const eq = w.indexOf('=');
    if (eq > 0) {
      out.push({ name: w.slice(2, eq), value: w.slice(eq + 1) });
    } else if (valueFlags.has(w.slice(2)) && i + 1 < words.length) {
      out.push({ name: w.slice(2), value: words[i + 1] ?? '' });
      i += 1;
    } else {
      out.push({ name: w.slice(2), value: 'true' });
    }
  }
  return out;
}

function langleMap(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('<');
    if (at > 0) out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return out;
}

function eqMap(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return out;
}

/**
 * Applies command-line flags over the config file, as the kubelet does: a flag beats the config file;
 * `--register-with-taints` replaces the list each time (the last one wins); map flags (`--node-labels`,
 * `--kube-reserved`, `--eviction-hard`…) replace the file's map on first use and merge later uses;
 * `--cluster-dns` replaces on first use and appends later ones; scalars: the last wins.
 */
export function applyFlags(state: KubeletState, flags: readonly KubeletFlag[]): void {
  const seen = new Set<string>();
  for (const f of flags) {
    const first = !seen.has(f.name);
    seen.add(f.name);
    applyFlag(state, f, first);
  }
}

function mergeOrReplace(
  first: boolean,
  old: Record<string, string>,
  add: Record<string, string>,
): Record<string, string> {
  return first ? add : { ...old, ...add };
}

function applyFlag(state: KubeletState, f: KubeletFlag, first: boolean): void {
  switch (f.name) {
    case 'register-with-taints': {
      const parsed = parseTaintList(f.value);
      if (parsed.ok) state.taints = parsed.value;
      else fail(state, `kubelet refuses to start: --register-with-taints: ${parsed.error}`);
      return;
    }
    case 'node-labels': {
      const parsed = parseLabelList(f.value);
      if (parsed.ok) state.labels = mergeOrReplace(first, state.labels, parsed.value);
      else fail(state, `kubelet refuses to start: --node-labels: ${parsed.error}`);
      return;
    }
    case 'max-pods': {
      const n = Number(f.value);
      if (Number.isInteger(n)) state.maxPods = n;
      else fail(state, `kubelet refuses to start: --max-pods "${f.value}" is not an integer`);
      return;
    }
    case 'kube-reserved':
      state.kubeReserved = mergeOrReplace(first, state.kubeReserved, eqMap(f.value));
      return;
    case 'system-reserved':
      state.systemReserved = mergeOrReplace(first, state.systemReserved, eqMap(f.value));
      return;
    case 'eviction-hard':
      state.evictionHard = mergeOrReplace(first, state.evictionHard, langleMap(f.value));
      return;
    case 'eviction-soft':
      state.evictionSoft = mergeOrReplace(first, state.evictionSoft, langleMap(f.value));
      return;
    case 'cluster-dns': {
      const ips = f.value.split(',').filter((s) => s !== '');
      state.clusterDNS = first ? ips : [...state.clusterDNS, ...ips];
      return;
    }
    case 'cloud-provider':
      state.cloudProvider = f.value;
      return;
    default:
  }
}

/** The public view of a finished state. */
export function toEffective(state: KubeletState): EffectiveKubeletConfig {
  return {
    taints: state.taints,
    labels: state.labels,
    ...(state.maxPods !== undefined ? { maxPods: state.maxPods } : {}),
    kubeReserved: state.kubeReserved,
    systemReserved: state.systemReserved,
    evictionHard: state.evictionHard,
    evictionSoft: state.evictionSoft,
    clusterDNS: state.clusterDNS,
    ...(state.cloudProvider !== undefined ? { cloudProvider: state.cloudProvider } : {}),
    ...(state.clusterName !== undefined ? { clusterName: state.clusterName } : {}),
    problems: state.problems,
    joins: !state.fatal,
  };
}
