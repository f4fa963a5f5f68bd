import { kubeletMaySetLabel, parseLabelList } from './label-strings.js';
import { splitKubeletFlags } from './kubelet-state.js';
import { Findings, LintCodes, ManagedFlags, kubeletFix, labelFix, taintFix, type Location } from './lint-finding.js';
import { parseTaintList } from './taint-strings.js';

/** What the flag checks need to know. */
export interface FlagLintContext {
  findings: Findings;
  location: Location;
  /** Custom AMIs must set registration taints themselves, so "userData sets taints" is not advice there. */
  custom: boolean;
  /** Where the flags come from, for messages. */
  source: string;
}

function lintTaintFlag(ctx: FlagLintContext, value: string): void {
  const parsed = parseTaintList(value);
  if (!parsed.ok) {
    ctx.findings.add({
      severity: 'error',
      code: LintCodes.taintMalformed,
      location: ctx.location,
      message: `${ctx.source}: --register-with-taints: ${parsed.error}; the kubelet refuses to start`,
      fix: 'Write each taint as key=value:Effect or key:Effect (Effect is NoSchedule, PreferNoSchedule or NoExecute), comma-separated, no spaces.',
    });
    return;
  }
  if (!ctx.custom) {
    ctx.findings.add({
      severity: 'warning',
      code: LintCodes.setsTaints,
      location: ctx.location,
      message: `${ctx.source} sets registration taints (--register-with-taints=${value}); a kubelet flag beats the config file, which would drop the taints Tenon requires, so Tenon merges them`,
      fix: taintFix,
    });
  }
}

function lintLabelFlag(ctx: FlagLintContext, value: string): void {
  const parsed = parseLabelList(value);
  if (!parsed.ok) {
    ctx.findings.add({
      severity: 'error',
      code: LintCodes.labelMalformed,
      location: ctx.location,
      message: `${ctx.source}: --node-labels: ${parsed.error}; the kubelet refuses to start`,
      fix: 'Write labels as key=value pairs separated by commas; keys are qualified names, values up to 63 alphanumerics with -_. inside.',
    });
    return;
  }
  for (const key of Object.keys(parsed.value)) {
    if (!kubeletMaySetLabel(key)) {
      ctx.findings.add({
        severity: 'error',
        code: LintCodes.labelRestricted,
        location: ctx.location,
        message: `${ctx.source}: --node-labels sets "${key}", a kubernetes.io/k8s.io label the kubelet may not set on itself; it refuses to start`,
        fix: `Remove "${key}" from --node-labels; put it in the NodePool's template labels and Tenon applies it at registration.`,
      });
    }
  }
  if (!ctx.custom) {
    ctx.findings.add({
      severity: 'warning',
      code: LintCodes.setsLabels,
      location: ctx.location,
      message: `${ctx.source} sets node labels (--node-labels=${value})`,
      fix: labelFix,
    });
  }
}

/** Checks kubelet flags (AL2 --kubelet-extra-args, NodeConfig kubelet.flags, Windows -KubeletExtraArgs). */
export function lintKubeletFlags(ctx: FlagLintContext, words: readonly string[]): void {
  for (const f of splitKubeletFlags(words)) {
    if (f.name === 'register-with-taints') lintTaintFlag(ctx, f.value);
    else if (f.name === 'node-labels') lintLabelFlag(ctx, f.value);
    else {
      const field = ManagedFlags[f.name];
      if (field && !ctx.custom) {
        ctx.findings.add({
          severity: 'warning',
          code: LintCodes.setsKubelet,
          location: ctx.location,
          message: `${ctx.source} sets --${f.name}=${f.value}, a kubelet setting Tenon manages; the flag beats what Tenon configures`,
          fix: kubeletFix(field),
        });
      }
    }
  }
}
