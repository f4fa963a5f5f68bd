import { kubernetesSettings, parseToml, readNodeTaints } from './bottlerocket.js';
import { kubeletMaySetLabel, labelError } from './label-strings.js';
import { Findings, LintCodes, ManagedBottlerocketKeys, kubeletFix, labelFix, taintFix } from './lint-finding.js';
import { isObj } from './nodeconfig.js';

function lineOfKey(text: string, key: string): number | undefined {
  const i = text.split('\n').findIndex((l) => l.includes(key));
  return i < 0 ? undefined : i + 1;
}

function at(text: string, key: string): { line?: number } {
  const line = lineOfKey(text, key);
  return line === undefined ? {} : { line };
}

function lintLabels(findings: Findings, text: string, labels: unknown, custom: boolean): void {
  if (!isObj(labels)) return;
  for (const [key, value] of Object.entries(labels)) {
    const bad = labelError(key, String(value));
    if (bad)
      findings.add({
        severity: 'error',
        code: LintCodes.labelMalformed,
        location: at(text, key),
        message: `settings.kubernetes.node-labels: ${bad}`,
        fix: 'Use a qualified-name key and a valid label value.',
      });
    else if (!kubeletMaySetLabel(key))
      findings.add({
        severity: 'error',
        code: LintCodes.labelRestricted,
        location: at(text, key),
        message: `settings.kubernetes.node-labels sets "${key}", which the kubelet may not set on itself`,
        fix: `Remove "${key}"; put it in the NodePool's template labels.`,
      });
  }
  if (!custom && Object.keys(labels).length > 0)
    findings.add({
      severity: 'warning',
      code: LintCodes.setsLabels,
      location: at(text, 'node-labels'),
      message: 'Bottlerocket settings.kubernetes.node-labels sets node labels',
      fix: labelFix,
    });
}

/** Checks Bottlerocket TOML userData. */
export function lintBottlerocket(findings: Findings, text: string, custom: boolean): void {
  const parsed = parseToml(text);
  if (!parsed.ok) {
    findings.add({
      severity: 'error',
      code: LintCodes.tomlInvalid,
      location: {},
      message: `userData is not valid TOML: ${parsed.error}`,
      fix: 'Fix the TOML; Bottlerocket reads settings such as [settings.kubernetes] from it.',
    });
    return;
  }
  const k8s = kubernetesSettings(parsed.value);
  const taints = readNodeTaints(k8s);
  for (const e of taints) {
    if (e.error)
      findings.add({
        severity: 'error',
        code: LintCodes.taintMalformed,
        location: at(text, 'node-taints'),
        message: `settings.kubernetes.node-taints: ${e.error}`,
        fix: 'Write node-taints as "key" = ["value:Effect"] (value may be empty: ":NoSchedule").',
      });
  }
  if (taints.length > 0 && !custom)
    findings.add({
      severity: 'warning',
      code: LintCodes.setsTaints,
      location: at(text, 'node-taints'),
      message:
        'Bottlerocket settings.kubernetes.node-taints sets registration taints; Tenon merges them with the required ones',
      fix: taintFix,
    });
  lintLabels(findings, text, k8s['node-labels'], custom);
  if (custom) return;
  for (const [key, field] of Object.entries(ManagedBottlerocketKeys)) {
    if (k8s[key] !== undefined)
      findings.add({
        severity: 'warning',
        code: LintCodes.setsKubelet,
        location: at(text, key),
        message: `settings.kubernetes.${key} is a kubelet setting Tenon manages (Tenon overwrites it)`,
        fix: kubeletFix(field),
      });
  }
}
