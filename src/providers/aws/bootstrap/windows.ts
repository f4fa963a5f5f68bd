import { splitExtraArgs } from './bootstrap-calls.js';
import { mergedExtraArgs } from './al2-gen.js';
import { applyFlags, eksDefaults, fail, splitKubeletFlags, type KubeletState } from './kubelet-state.js';
import { clusterDnsIp } from './required.js';
import { resolveWord, tokenize } from './shell-script.js';
import type { NodeFacts, UserDataInput } from './types.js';

function psQuote(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Windows userData: one `<powershell>` block, the user's script first, then Start-EKSBootstrap.ps1. */
export function generateWindows(input: UserDataInput): string {
  const user = (input.userData ?? '').replace(/<\/?powershell>/g, '').trim();
  const args = [
    `-EKSClusterName ${psQuote(input.cluster.name)}`,
    `-APIServerEndpoint ${psQuote(input.cluster.endpoint)}`,
    `-Base64ClusterCA ${psQuote(input.cluster.caBundle)}`,
    `-KubeletExtraArgs ${psQuote(mergedExtraArgs(input, { taints: [], labels: {}, others: [] }))}`,
  ];
  const dns = clusterDnsIp(input);
  if (dns) args.push(`-DNSClusterIP ${psQuote(dns)}`);
  return [
    '<powershell>',
    ...(user ? [user] : []),
    '[string]$EKSBootstrapScriptFile = "$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1"',
    `& $EKSBootstrapScriptFile ${args.join(' ')}`,
    '</powershell>',
    '',
  ].join('\n');
}

/** The kubelet's view of Windows userData: the first Start-EKSBootstrap.ps1 call and its -KubeletExtraArgs. */
export function windowsView(text: string, facts: NodeFacts): KubeletState {
  const state = eksDefaults(facts);
  const line = text.split('\n').find((l) => /^\s*&\s*(\$EKSBootstrapScriptFile|\S*Start-EKSBootstrap\.ps1)/i.test(l));
  if (!line) {
    fail(state, 'no Start-EKSBootstrap.ps1 call found: nothing starts the kubelet, so the node never joins');
    return state;
  }
  const words = tokenize(line.replace(/''/g, "'\\''")).filter((t): t is string => typeof t === 'string');
  const valueOf = (name: string): string | undefined => {
    const i = words.findIndex((w) => w.toLowerCase() === name.toLowerCase());
    return i >= 0 ? words[i + 1] : undefined;
  };
  const cluster = valueOf('-EKSClusterName');
  if (cluster) state.clusterName = cluster;
  else fail(state, 'Start-EKSBootstrap.ps1 is called without -EKSClusterName');
  const dns = valueOf('-DNSClusterIP');
  if (dns) state.clusterDNS = [dns];
  const extra = splitExtraArgs(valueOf('-KubeletExtraArgs') ?? '').map((w) => resolveWord(w, {}));
  applyFlags(state, splitKubeletFlags(extra));
  return state;
}
