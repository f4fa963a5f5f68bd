import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintLines, readNodeClasses } from './lint.js';

function file(text: string): string {
  const f = join(mkdtempSync(join(tmpdir(), 'tenon-lint-')), 'nc.yaml');
  writeFileSync(f, text);
  return f;
}

const s3 = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: custom}
spec:
  amiFamily: Custom
  amiSelectorTerms: [{id: ami-123}]
  userData: |
    #!/bin/bash
    /etc/eks/bootstrap.sh my-cluster --kubelet-extra-args='--register-with-taints="karpenter.sh/unregistered:NoExecute"'
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ignored}
`;

describe('tenon lint', () => {
  it('reports the S3 one-word --kubelet-extra-args and the missing registration taint as errors, with the fix', () => {
    const { nodeClasses, nodePools } = readNodeClasses([file(s3)]);
    expect(nodeClasses).toHaveLength(1);
    const { lines, failed } = lintLines(nodeClasses, nodePools);
    expect(failed).toBe(true);
    expect(lines.join('\n')).toContain('EC2NodeClass/custom: error BOOTSTRAP_UNRECOGNISED_OPTION (part 1, line 2)');
    expect(lines.join('\n')).toContain('error REGISTRATION_TAINT_MISSING');
    expect(lines.join('\n')).toContain("fix: Write it as two words: --kubelet-extra-args '");
  });

  it('passes the two-word form', () => {
    const fixed = s3.replace(
      `--kubelet-extra-args='--register-with-taints="karpenter.sh/unregistered:NoExecute"'`,
      `--kubelet-extra-args '--register-with-taints=karpenter.sh/unregistered:NoExecute'`,
    );
    const { nodeClasses, nodePools } = readNodeClasses([file(fixed)]);
    const { lines, failed } = lintLines(nodeClasses, nodePools);
    expect(lines.filter((l) => l.includes(' error '))).toEqual([]);
    expect(failed).toBe(false);
  });

  // The shape of Karpenter's examples/v1/al2023-custom-userdata.yaml: a multipart ending "--//" and a newline.
  function al2023(block: '|' | '|-', end: string, family = 'AL2023'): string {
    const lines = [
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="//"',
      '',
      '--//',
      'Content-Type: application/node.eks.aws',
      '',
      'apiVersion: node.eks.aws/v1alpha1',
      'kind: NodeConfig',
      'spec:',
      '  kubelet:',
      '    config:',
      '      maxPods: 42',
      ...end.split('\n'),
    ];
    return `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: mime}
spec:
  amiFamily: ${family}
  role: KarpenterNodeRole-playground
  amiSelectorTerms: [{${family === 'Custom' ? 'id: ami-123' : 'alias: al2023@latest'}}]
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: playground}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: playground}}]
  userData: ${block}
${lines.map((l) => (l ? `    ${l}` : '')).join('\n')}
`;
  }

  function mimeFindings(text: string): string[] {
    const { nodeClasses, nodePools } = readNodeClasses([file(text)]);
    return lintLines(nodeClasses, nodePools).lines.filter((l) => l.includes('MIME'));
  }

  it('accepts a multipart that ends "--//" and a newline, as Go (Karpenter, nodeadm) and cloud-init read it', () => {
    expect(mimeFindings(al2023('|', '--//'))).toEqual([]);
    expect(mimeFindings(al2023('|', '--//--'))).toEqual([]);
  });

  it('refuses what Go refuses: "--//" with no newline after it, or a last part never closed', () => {
    expect(mimeFindings(al2023('|-', '--//')).join('\n')).toMatch(/error MIME_MALFORMED.*no newline.*NextPart: EOF/);
    expect(mimeFindings(al2023('|', '')).join('\n')).toMatch(/error MIME_MALFORMED.*not closed.*unexpected EOF/);
  });
});
