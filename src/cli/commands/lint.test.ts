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
});
