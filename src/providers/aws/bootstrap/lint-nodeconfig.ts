import { splitExtraArgs } from './bootstrap-calls.js';
import { lintKubeletFlags } from './lint-flags.js';
import { Findings, LintCodes, ManagedConfigKeys, kubeletFix, taintFix } from './lint-finding.js';
import type { MimePart } from './mime.js';
import { configOf, flagsOf, isObj, readNodeConfigs } from './nodeconfig.js';
import { parseTaint } from './taint-strings.js';

function lintRegisterWithTaints(
  findings: Findings,
  value: unknown,
  at: { part: number; document: number; line: number },
  custom: boolean,
): void {
  const list = Array.isArray(value) ? value : [];
  for (const item of list) {
    const t = isObj(item) ? item : {};
    const text = `${String(t.key ?? '')}${t.value ? `=${String(t.value)}` : ''}:${String(t.effect ?? '')}`;
    const parsed = parseTaint(text);
    if (!parsed.ok)
      findings.add({
        severity: 'error',
        code: LintCodes.taintMalformed,
        location: at,
        message: `kubelet.config.registerWithTaints: ${parsed.error}`,
        fix: 'Each taint needs a key (qualified name), an optional value and an effect (NoSchedule, PreferNoSchedule or NoExecute).',
      });
  }
  if (!custom)
    findings.add({
      severity: 'warning',
      code: LintCodes.setsTaints,
      location: at,
      message:
        'NodeConfig kubelet.config.registerWithTaints sets registration taints; Tenon merges them with the required ones',
      fix: taintFix,
    });
}

/** Checks the NodeConfig documents of AL2023 (or Custom nodeadm) userData. */
export function lintNodeConfigs(findings: Findings, parts: readonly MimePart[], custom: boolean): void {
  for (const doc of readNodeConfigs(parts)) {
    const at = { part: doc.part + 1, document: doc.document, line: doc.line };
    if (doc.error || !doc.spec) {
      findings.add({
        severity: 'error',
        code: LintCodes.nodeConfigInvalid,
        location: at,
        message: `nodeadm cannot read this NodeConfig: ${doc.error ?? 'no spec'}; nodeadm init fails and the node never joins`,
        fix: 'Fix the YAML: apiVersion: node.eks.aws/v1alpha1, kind: NodeConfig, spec: {...}.',
      });
      continue;
    }
    lintKubeletFlags(
      { findings, location: at, custom, source: 'NodeConfig kubelet.flags' },
      flagsOf(doc.spec).flatMap((f) => splitExtraArgs(f)),
    );
    const config = configOf(doc.spec);
    if (config.registerWithTaints !== undefined)
      lintRegisterWithTaints(findings, config.registerWithTaints, at, custom);
    for (const key of ManagedConfigKeys) {
      if (config[key] !== undefined && !custom) {
        findings.add({
          severity: 'warning',
          code: LintCodes.setsKubelet,
          location: at,
          message: `NodeConfig kubelet.config.${key} is a kubelet setting Tenon manages`,
          fix: kubeletFix(key),
        });
      }
    }
    if (isObj(doc.spec.cluster) && Object.keys(doc.spec.cluster).length > 0 && !custom) {
      findings.add({
        severity: 'info',
        code: LintCodes.setsCluster,
        location: at,
        message:
          'NodeConfig spec.cluster is set in userData; Tenon writes the cluster details in its last document, which wins',
        fix: 'Remove spec.cluster from userData.',
      });
    }
  }
}
