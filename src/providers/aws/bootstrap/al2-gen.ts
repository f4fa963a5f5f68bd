import type { Taint } from '../../../api/index.js';
import { findBootstrapCalls, splitExtraArgs, type BootstrapCall } from './bootstrap-calls.js';
import { parseLabelList, formatLabels } from './label-strings.js';
import { ShellScriptType, parseMime, serializeMime, type MimeEntry } from './mime.js';
import {
  InvalidUserDataError,
  clusterDnsIp,
  effectiveMaxPods,
  kubeletSettingFlags,
  requiredLabels,
  requiredTaints,
} from './required.js';
import { resolveWord, serializeTokens, singleQuote } from './shell-script.js';
import { formatTaint, parseTaintList, unionTaints } from './taint-strings.js';
import type { UserDataInput } from './types.js';

/** The user's registration taints and labels found in kubelet flags, and the flags that remain. */
interface SplitFlags {
  taints: Taint[];
  labels: Record<string, string>;
  others: string[];
}

/** Pulls --register-with-taints (last wins) and --node-labels (merged) out of a kubelet argument list. */
export function takeRegistrationFlags(words: readonly string[]): SplitFlags {
  const out: SplitFlags = { taints: [], labels: {}, others: [] };
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    const m = /^--(register-with-taints|node-labels)(=(.*))?$/s.exec(w);
    if (!m) {
      out.others.push(w);
      continue;
    }
    let value = m[3];
    if (value === undefined) {
      value = words[i + 1] ?? '';
      i += 1;
    }
    if (m[1] === 'register-with-taints') {
      const t = parseTaintList(value);
      if (t.ok) out.taints = t.value;
    } else {
      const l = parseLabelList(value);
      if (l.ok) out.labels = { ...out.labels, ...l.value };
    }
  }
  return out;
}

/** Quotes one kubelet argument for KUBELET_EXTRA_ARGS (systemd splits on spaces and honours double quotes). */
function systemdWord(w: string): string {
  if (!/[\s"'\\]/.test(w)) return w;
  const eq = w.indexOf('=');
  const body = (s: string): string => `"${s.replace(/(["\\])/g, '\\$1')}"`;
  return w.startsWith('--') && eq > 0 ? `${w.slice(0, eq + 1)}${body(w.slice(eq + 1))}` : body(w);
}

/** Tenon's --kubelet-extra-args: its settings, then the user's other flags, then the merged labels and taints. */
export function mergedExtraArgs(input: UserDataInput, user: SplitFlags): string {
  const labels = { ...user.labels, ...requiredLabels(input.labels) };
  const taints = unionTaints(user.taints, requiredTaints(input));
  const words = [...kubeletSettingFlags(input.kubelet, effectiveMaxPods(input)), ...user.others.map(systemdWord)];
  if (Object.keys(labels).length > 0) words.push(`--node-labels="${formatLabels(labels)}"`);
  words.push(`--register-with-taints="${taints.map(formatTaint).join(',')}"`);
  return words.join(' ');
}

function bootstrapOptions(input: UserDataInput): [string, string][] {
  const opts: [string, string][] = [
    ['--apiserver-endpoint', input.cluster.endpoint],
    ['--b64-cluster-ca', input.cluster.caBundle],
  ];
  if (input.cluster.ipFamily === 'ipv6') opts.push(['--ip-family', 'ipv6']);
  const dns = clusterDnsIp(input);
  if (dns) opts.push(['--dns-cluster-ip', dns]);
  if (effectiveMaxPods(input) !== undefined) opts.push(['--use-max-pods', 'false']);
  if (input.instanceStorePolicy === 'RAID0') opts.push(['--local-disks', 'raid0']);
  return opts;
}

/** Tenon's own bootstrap part, as Karpenter writes it (options as two words; bootstrap.sh needs that). */
export function al2BootstrapScript(input: UserDataInput): string {
  const lines = [`/etc/eks/bootstrap.sh ${singleQuote(input.cluster.name)}`];
  for (const [opt, value] of bootstrapOptions(input)) lines.push(`${opt} ${singleQuote(value)}`);
  lines.push(`--kubelet-extra-args ${singleQuote(mergedExtraArgs(input, { taints: [], labels: {}, others: [] }))}`);
  return [
    '#!/bin/bash -xe',
    'exec > >(tee /var/log/user-data.log|logger -t user-data -s 2>/dev/console) 2>&1',
    `${lines.join(' \\\n')}\n`,
  ].join('\n');
}

/** Rewrites the user's own bootstrap.sh call so its kubelet args hold the union (SCENARIOS.md S2). */
function rewriteCall(call: BootstrapCall, input: UserDataInput, content: string): string {
  const { site, program, args } = call;
  const raw = site.tokens[site.lineIndex]?.slice(site.start, site.end) ?? [];
  const rawArgs = raw.slice(program + 1);
  const keep: string[] = [];
  const userExtra: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const word = resolveWord(String(rawArgs[i]), {});
    if (word === '--kubelet-extra-args') {
      userExtra.push(args.options['--kubelet-extra-args'] ?? '');
      i += 1;
    } else if (word.startsWith('--kubelet-extra-args=')) {
      // bootstrap.sh would ignore this one-word form; Tenon folds it in (lint still reports it).
      userExtra.push(word.slice('--kubelet-extra-args='.length));
    } else keep.push(String(rawArgs[i]));
  }
  for (const [opt, value] of bootstrapOptions(input)) if (args.options[opt] === undefined) keep.push(opt, value);
  if (args.clusterName === undefined) keep.unshift(input.cluster.name);
  const user = takeRegistrationFlags(userExtra.flatMap((e) => splitExtraArgs(e).map((w) => resolveWord(w, {}))));
  const words = [
    ...raw.slice(0, program + 1).map(String),
    ...keep,
    '--kubelet-extra-args',
    mergedExtraArgs(input, user),
  ];
  const lineTokens = site.tokens[site.lineIndex] ?? [];
  const newLine = serializeTokens([...lineTokens.slice(0, site.start), ...words, ...lineTokens.slice(site.end)]);
  const logical = site.lines[site.lineIndex];
  const physical = content.split('\n');
  if (!logical) return content;
  return [...physical.slice(0, logical.line - 1), newLine, ...physical.slice(logical.endLine)].join('\n');
}

/**
 * AL2 userData: a MIME archive of the user's parts first, then Tenon's bootstrap.sh part. When the user's
 * userData calls bootstrap.sh itself, that call starts the kubelet, so Tenon merges its arguments into that
 * call instead of adding a second one.
 */
export function generateAl2(input: UserDataInput): string {
  const user = input.userData ? parseMime(input.userData, ShellScriptType) : undefined;
  if (user && user.parts.length === 0 && user.problems.length > 0) {
    throw new InvalidUserDataError(`userData is not a readable MIME archive: ${user.problems.join('; ')}`);
  }
  const entries: MimeEntry[] = (user?.parts ?? []).map((p) => ({ contentType: p.contentType, content: p.content }));
  const call = findBootstrapCalls(user?.parts ?? [])[0];
  const target = call ? entries[call.part] : undefined;
  if (call && target) {
    target.content = rewriteCall(call, input, target.content);
  } else {
    entries.push({ contentType: ShellScriptType, content: al2BootstrapScript(input) });
  }
  return serializeMime(entries);
}
