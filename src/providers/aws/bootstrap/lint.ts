import { LegacyUninitializedTaintKey } from '../../../api/index.js';
import { effectiveKubeletConfig, kindOf } from './effective.js';
import { familyOf } from './family.js';
import { tryGenerateUserData } from './generate.js';
import { lintBottlerocket } from './lint-bottlerocket.js';
import { Findings, LintCodes } from './lint-finding.js';
import { lintNodeConfigs } from './lint-nodeconfig.js';
import { lintShellParts } from './lint-shell.js';
import { parseMime } from './mime.js';
import { isNodeConfigPart, parseAl2023Parts } from './nodeconfig.js';
import { RegistrationTaint, requiredTaints } from './required.js';
import { formatTaint, hasTaint } from './taint-strings.js';
import type { AmiFamily, EC2NodeClassLike, LintFinding, NodePoolLike } from './types.js';

const registrationFix =
  "Add the registration taint to the kubelet arguments, as two words: /etc/eks/bootstrap.sh '<cluster>' --kubelet-extra-args '--register-with-taints=karpenter.sh/unregistered:NoExecute' (keep it in the same comma-separated list as any other taints).";

function nodePoolsFor(nodeClass: EC2NodeClassLike, pools: readonly NodePoolLike[]): NodePoolLike[] {
  const name = nodeClass.metadata?.name;
  return pools.filter((p) => {
    const ref = p.spec.template.spec.nodeClassRef?.name;
    return ref === undefined || name === undefined || ref === name;
  });
}

/** The archive's MIME problems; those only Go refuses are warnings where Python's cloud-init reads the archive. */
function mimeFindings(findings: Findings, archive: ReturnType<typeof parseMime>, goReads: boolean): void {
  const fix =
    'Start with MIME-Version and Content-Type: multipart/mixed; boundary="…" headers, open each part with --boundary, give each a Content-Type, and close with --boundary--.';
  for (const p of archive.problems)
    findings.add({
      severity: 'error',
      code: LintCodes.mimeMalformed,
      location: {},
      message: `malformed MIME userData: ${p}`,
      fix,
    });
  for (const p of archive.strictProblems ?? [])
    findings.add({
      severity: goReads ? 'error' : 'warning',
      code: LintCodes.mimeMalformed,
      location: {},
      message: `malformed MIME userData: ${p}${goReads ? '' : " (cloud-init's Python parser reads it anyway)"}`,
      fix,
    });
}

function lintContent(findings: Findings, family: AmiFamily, userData: string): void {
  const custom = family === 'Custom';
  const kind = kindOf(family, userData);
  if (kind === 'bottlerocket') return lintBottlerocket(findings, userData, custom);
  if (kind === 'windows') return;
  const archive = kind === 'nodeadm' ? parseAl2023Parts(userData) : parseMime(userData);
  // Karpenter merges AL2 and AL2023 userData with Go and nodeadm reads it with Go; a Custom family's cloud-init
  // reads it with Python, which takes what Go refuses.
  mimeFindings(findings, archive, !custom || kind === 'nodeadm');
  if (kind === 'nodeadm') lintNodeConfigs(findings, archive.parts, custom);
  if (
    kind === 'nodeadm' &&
    !archive.isMime &&
    archive.parts.every((p) => !isNodeConfigPart(p)) &&
    /^\s*(apiVersion|kind)\s*:/m.test(userData)
  ) {
    findings.add({
      severity: 'error',
      code: LintCodes.nodeConfigInvalid,
      location: { part: 1, document: 1 },
      message:
        'userData looks like a NodeConfig but is not valid YAML, so it is passed on as a shell script and nodeadm never sees it',
      fix: 'Fix the YAML (apiVersion: node.eks.aws/v1alpha1, kind: NodeConfig, spec: {...}).',
    });
  }
  lintShellParts({ findings, parts: archive.parts, mode: custom ? 'Custom' : family === 'AL2023' ? 'AL2023' : 'AL2' });
}

function lintCustomRegistration(findings: Findings, userData: string): void {
  const view = effectiveKubeletConfig(userData, 'Custom');
  if (!view.joins && !findings.list.some((f) => f.severity === 'error')) {
    findings.add({
      severity: 'error',
      code: LintCodes.bootFails,
      location: {},
      message: `the node would not join: ${view.problems.join('; ')}`,
      fix: 'Fix the problems listed; the node never registers otherwise.',
    });
  }
  if (userData.includes(LegacyUninitializedTaintKey)) {
    findings.add({
      severity: 'error',
      code: LintCodes.registrationTaintLegacy,
      location: {},
      message: `userData names ${LegacyUninitializedTaintKey}, the pre-v1 registration taint; Tenon (like Karpenter v1) waits for karpenter.sh/unregistered:NoExecute instead`,
      fix: registrationFix,
    });
  }
  if (view.joins && !hasTaint(view.taints, RegistrationTaint)) {
    const got = view.taints.length > 0 ? view.taints.map(formatTaint).join(',') : 'no taints';
    findings.add({
      severity: 'error',
      code: LintCodes.registrationTaintMissing,
      location: {},
      message: `the kubelet would register with ${got}, without ${formatTaint(RegistrationTaint)}; pods could land before Tenon adopts the node`,
      fix: registrationFix,
    });
  }
}

function lintGenerated(
  findings: Findings,
  nodeClass: EC2NodeClassLike,
  family: AmiFamily,
  pools: readonly NodePoolLike[],
): void {
  const taints = pools.flatMap((p) => p.spec.template.spec.taints ?? []);
  const startupTaints = pools.flatMap((p) => p.spec.template.spec.startupTaints ?? []);
  const cluster = {
    name: 'lint-cluster',
    endpoint: 'https://lint.invalid',
    caBundle: 'TElOVA==',
    serviceCidr: '10.100.0.0/16',
  };
  const input = {
    amiFamily: family,
    cluster,
    labels: {},
    taints,
    startupTaints,
    ...(nodeClass.spec.userData !== undefined ? { userData: nodeClass.spec.userData } : {}),
    ...(nodeClass.spec.kubelet ? { kubelet: nodeClass.spec.kubelet } : {}),
  };
  const generated = tryGenerateUserData(input);
  if (!generated.ok) {
    if (!findings.list.some((f) => f.severity === 'error'))
      findings.add({
        severity: 'error',
        code: LintCodes.userDataInvalid,
        location: {},
        message: generated.error,
        fix: 'Fix the userData so Tenon can merge it.',
      });
    return;
  }
  const view = effectiveKubeletConfig(generated.userData, family);
  const missing = requiredTaints(input).filter((t) => !hasTaint(view.taints, t));
  if (view.joins && missing.length > 0) {
    findings.add({
      severity: 'error',
      code: LintCodes.registrationTaintMissing,
      location: {},
      message: `with this userData the kubelet would register without ${missing.map(formatTaint).join(', ')}`,
      fix: registrationFix,
    });
  }
}

/**
 * Lints an EC2NodeClass's userData (with the NodePools that use it): options bootstrap.sh will not
 * recognise, a Custom userData without the registration taint, malformed taints and labels, settings Tenon
 * manages, invalid NodeConfig YAML or Bottlerocket TOML, malformed MIME. Never throws.
 */
export function lint(input: { nodeClass: EC2NodeClassLike; nodePools?: NodePoolLike[] }): LintFinding[] {
  const findings = new Findings();
  const { nodeClass } = input;
  const family = familyOf(nodeClass);
  const userData = nodeClass.spec.userData;
  if (!family) {
    findings.add({
      severity: 'warning',
      code: LintCodes.familyUnknown,
      location: {},
      message: 'the AMI family is unknown (no spec.amiFamily and no alias amiSelectorTerm); userData is read as Custom',
      fix: 'Set spec.amiSelectorTerms[].alias (e.g. al2023@latest) or spec.amiFamily.',
    });
  }
  const effective = family ?? 'Custom';
  if (userData === undefined || userData.trim() === '') {
    if (effective === 'Custom')
      findings.add({
        severity: 'error',
        code: LintCodes.userDataMissing,
        location: {},
        message: 'a Custom AMI family needs userData that bootstraps the node; without it the node never joins',
        fix: 'Add userData that runs the bootstrap, with --register-with-taints=karpenter.sh/unregistered:NoExecute.',
      });
    return findings.list;
  }
  try {
    lintContent(findings, effective, userData);
    if (effective === 'Custom') lintCustomRegistration(findings, userData);
    else lintGenerated(findings, nodeClass, effective, nodePoolsFor(nodeClass, input.nodePools ?? []));
  } catch (e: unknown) {
    findings.add({
      severity: 'error',
      code: LintCodes.userDataInvalid,
      location: {},
      message: `userData could not be read: ${e instanceof Error ? e.message : String(e)}`,
      fix: 'Check the userData format for the AMI family.',
    });
  }
  return findings.list;
}
