import { findBootstrapCalls, splitExtraArgs, type BootstrapCall } from './bootstrap-calls.js';
import { lintKubeletFlags } from './lint-flags.js';
import { Findings, LintCodes } from './lint-finding.js';
import type { MimePart } from './mime.js';
import { resolveWord } from './shell-script.js';

/** What the shell checks need to know. */
export interface ShellLintContext {
  findings: Findings;
  parts: readonly MimePart[];
  /** Custom: the user's bootstrap call is the only one. AL2: Tenon merges its settings into it. */
  mode: 'Custom' | 'AL2' | 'AL2023';
}

function lintIgnored(ctx: ShellLintContext, call: BootstrapCall): void {
  const location = { part: call.part + 1, line: call.line };
  for (const w of call.args.ignored) {
    const folded = ctx.mode === 'AL2' && w.meant === '--kubelet-extra-args';
    const value = w.meant ? w.word.slice(w.meant.length + 1) : '';
    ctx.findings.add({
      severity: folded ? 'warning' : 'error',
      code: LintCodes.unrecognisedOption,
      location,
      message: w.meant
        ? `bootstrap.sh does not recognise "${w.word}": its argument loop only accepts "${w.meant}" and its value as two words, so the one-word form falls through to the positionals and is silently ignored${folded ? ' (Tenon rewrites it into the two-word form for AL2)' : ''}`
        : `bootstrap.sh does not recognise "${w.word}" and ignores it (only the first positional, the cluster name, is used)`,
      fix: w.meant
        ? `Write it as two words: ${w.meant} '${value.replace(/^'|'$/g, '')}'`
        : `Remove "${w.word}" or use one of bootstrap.sh's options.`,
    });
  }
}

function lintCall(ctx: ShellLintContext, call: BootstrapCall): void {
  const location = { part: call.part + 1, line: call.line };
  lintIgnored(ctx, call);
  if (call.args.fatal) {
    ctx.findings.add({
      severity: 'error',
      code: LintCodes.bootstrapFails,
      location,
      message: call.args.fatal,
      fix: 'Call /etc/eks/bootstrap.sh <cluster-name> [--option value]…, giving every option its value as the next word.',
    });
  }
  const extra = [
    call.args.options['--kubelet-extra-args'] ?? '',
    ...call.args.ignored
      .filter((w) => w.meant === '--kubelet-extra-args' && ctx.mode === 'AL2')
      .map((w) => w.word.slice('--kubelet-extra-args='.length)),
  ];
  const words = extra.flatMap((e) => splitExtraArgs(e)).map((w) => resolveWord(w, {}));
  lintKubeletFlags(
    { findings: ctx.findings, location, custom: ctx.mode === 'Custom', source: 'bootstrap.sh --kubelet-extra-args' },
    words,
  );
}

/** Checks the bootstrap.sh calls in the shell parts. */
export function lintShellParts(ctx: ShellLintContext): void {
  const calls = findBootstrapCalls(ctx.parts);
  if (ctx.mode === 'AL2023') {
    for (const call of calls) {
      ctx.findings.add({
        severity: 'error',
        code: LintCodes.bootstrapShOnAl2023,
        location: { part: call.part + 1, line: call.line },
        message: 'AL2023 AMIs have no /etc/eks/bootstrap.sh (they bootstrap with nodeadm); this command fails',
        fix: 'Remove the bootstrap.sh call; put kubelet settings in a NodeConfig document (application/node.eks.aws part) or in the EC2NodeClass.',
      });
    }
    return;
  }
  const [first, ...rest] = calls;
  if (!first) {
    if (ctx.mode === 'Custom')
      ctx.findings.add({
        severity: 'error',
        code: LintCodes.bootstrapNotFound,
        location: {},
        message:
          'a Custom AMI userData must start the kubelet, but no /etc/eks/bootstrap.sh call (nor a NodeConfig or Bottlerocket settings) was found',
        fix: "Add the bootstrap call, e.g. /etc/eks/bootstrap.sh '<cluster>' --kubelet-extra-args '--register-with-taints=karpenter.sh/unregistered:NoExecute'",
      });
    return;
  }
  if (ctx.mode === 'AL2') {
    ctx.findings.add({
      severity: 'warning',
      code: LintCodes.bootstrapInUserData,
      location: { part: first.part + 1, line: first.line },
      message:
        'userData calls bootstrap.sh itself; on AL2 Tenon generates that call, so Tenon merges its settings into yours instead of running bootstrap.sh twice',
      fix: 'Remove the bootstrap.sh call and configure the node through the EC2NodeClass (spec.kubelet) and the NodePool (taints, startupTaints, labels).',
    });
  }
  for (const extra of rest) {
    ctx.findings.add({
      severity: 'warning',
      code: LintCodes.bootstrapCalledTwice,
      location: { part: extra.part + 1, line: extra.line },
      message:
        'bootstrap.sh is called again; the kubelet already started with the first call, and registration settings of later calls never apply',
      fix: 'Call bootstrap.sh once.',
    });
  }
  for (const call of calls) lintCall(ctx, call);
}
