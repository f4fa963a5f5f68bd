import { findBootstrapCalls, splitExtraArgs } from './bootstrap-calls.js';
import { applyConfig, applyFlags, eksDefaults, fail, splitKubeletFlags, type KubeletState } from './kubelet-state.js';
import type { MimePart } from './mime.js';
import { configOf, flagsOf, isObj, mergeNodeConfigs, readNodeConfigs } from './nodeconfig.js';
import type { NodeFacts } from './types.js';

/** nodeadm's default cluster DNS: the service CIDR's .10 (IPv4) or its prefix followed by `a` (IPv6). */
export function dnsFromCidr(cidr: string): string | undefined {
  const base = cidr.split('/')[0] ?? '';
  if (base.includes(':')) return `${base}a`;
  const octets = base.split('.');
  if (octets.length !== 4) return undefined;
  return `${octets.slice(0, 3).join('.')}.10`;
}

function requireCluster(state: KubeletState, cluster: Record<string, unknown>): void {
  for (const field of ['name', 'apiServerEndpoint', 'certificateAuthority', 'cidr']) {
    if (!cluster[field])
      fail(state, `nodeadm: spec.cluster.${field} is missing, so nodeadm init fails and the node never joins`);
  }
}

/**
 * The kubelet's view of AL2023 userData: nodeadm merges the NodeConfig documents in order, writes its own
 * config and the user's `kubelet.config` as a drop-in over it, and passes its own flags and then
 * `kubelet.flags` on the command line, where they beat the config files.
 */
export function al2023View(parts: readonly MimePart[], facts: NodeFacts): KubeletState {
  const state = eksDefaults(facts);
  const docs = readNodeConfigs(parts);
  for (const d of docs) {
    if (d.error) fail(state, `nodeadm cannot read NodeConfig (part ${d.part + 1}, document ${d.document}): ${d.error}`);
  }
  for (const call of findBootstrapCalls(parts)) {
    state.problems.push(
      `part ${call.part + 1} line ${call.line}: AL2023 has no /etc/eks/bootstrap.sh; that command fails and is ignored by nodeadm`,
    );
  }
  const merged = mergeNodeConfigs(docs.flatMap((d) => (d.spec ? [d.spec] : [])));
  const cluster = isObj(merged.cluster) ? merged.cluster : {};
  requireCluster(state, cluster);
  if (typeof cluster.name === 'string') state.clusterName = cluster.name;
  const dns = typeof cluster.cidr === 'string' ? dnsFromCidr(cluster.cidr) : undefined;
  if (dns) state.clusterDNS = [dns];
  applyConfig(state, configOf(merged));
  const words = flagsOf(merged).flatMap((f) => splitExtraArgs(f));
  applyFlags(state, [{ name: 'cloud-provider', value: 'external' }, ...splitKubeletFlags(words)]);
  return state;
}
