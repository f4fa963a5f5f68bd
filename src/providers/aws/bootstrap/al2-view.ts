import { findBootstrapCalls, splitExtraArgs } from './bootstrap-calls.js';
import { applyFlags, eksDefaults, fail, splitKubeletFlags, type KubeletState } from './kubelet-state.js';
import type { MimePart } from './mime.js';
import { resolveWord } from './shell-script.js';
import type { NodeFacts } from './types.js';

/**
 * The kubelet's view of AL2-style userData: the first bootstrap.sh invocation starts the kubelet and the
 * node registers with what it was given; later invocations only rewrite files (`systemctl start` is a no-op
 * on a running kubelet and registration taints apply once).
 */
export function al2View(parts: readonly MimePart[], facts: NodeFacts): KubeletState {
  const state = eksDefaults(facts);
  const calls = findBootstrapCalls(parts);
  const call = calls[0];
  if (!call) {
    fail(state, 'no /etc/eks/bootstrap.sh invocation found: nothing starts the kubelet, so the node never joins');
    return state;
  }
  if (calls.length > 1) {
    state.problems.push(`bootstrap.sh runs ${calls.length} times; the kubelet registers with the first run's settings`);
  }
  const { args } = call;
  for (const w of args.ignored) {
    const hint = w.meant ? ` (bootstrap.sh does not recognise the one-word "${w.meant}=…" form)` : '';
    state.problems.push(`bootstrap.sh ignored the argument "${w.word}"${hint}`);
  }
  if (args.fatal) {
    fail(state, args.fatal);
    return state;
  }
  if (args.clusterName !== undefined) state.clusterName = args.clusterName;
  const dns = args.options['--dns-cluster-ip'];
  if (dns) state.clusterDNS = dns.split(',');
  // With --use-max-pods false bootstrap.sh writes no maxPods, so the kubelet's own default (110) applies.
  if (args.options['--use-max-pods'] === 'false') state.maxPods = 110;
  const extra = splitExtraArgs(args.options['--kubelet-extra-args'] ?? '').map((w) => resolveWord(w, {}));
  applyFlags(state, splitKubeletFlags(extra));
  return state;
}
