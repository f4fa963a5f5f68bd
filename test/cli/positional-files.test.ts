/**
 * The CLI papercuts of a first hour: files are positional everywhere (`tenon validate FILE`, as the README
 * says), `instance-types` reads Karpenter's multi-document examples and shows arch and GPU, and its output can be
 * piped to `head`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// A NodePool and its EC2NodeClass in one file, with the examples' ${CLUSTER_NAME} placeholder.
const example = `# an example in the shape of Karpenter's examples/v1
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: gpu}
spec:
  template:
    spec:
      requirements:
        - {key: karpenter.k8s.aws/instance-family, operator: In, values: ["g4dn", "m7g"]}
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: gpu}
spec:
  role: "KarpenterNodeRole-\${CLUSTER_NAME}"
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: "\${CLUSTER_NAME}"}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: "\${CLUSTER_NAME}"}}]
  amiSelectorTerms: [{alias: al2023@latest}]
`;

function file(name: string, text: string): string {
  const f = join(mkdtempSync(join(tmpdir(), 'tenon-cli-')), name);
  writeFileSync(f, text);
  return f;
}

describe('positional files', () => {
  it('tenon validate FILE validates, as the README says; without a file it is a usage error', async () => {
    const f = file('example.yaml', example);
    const run = await runCli(['validate', f]);
    expect(run.stdout).toContain('2 object(s) checked: valid');
    expect(run.exitCode).toBe(0);
    expect(await runCli(['validate', '-f', f])).toMatchObject({ exitCode: 0 });
    const none = await runCli(['validate']);
    expect(none).toMatchObject({ exitCode: 2, stdout: '' });
    expect(none.stderr).toMatch(/^tenon validate: name at least one manifest file/);
  });

  it('tenon lint FILE lints, and a missing file is one line, not a stack trace', async () => {
    expect((await runCli(['lint', file('example.yaml', example)])).stdout).toContain('EC2NodeClass/gpu: no findings');
    const missing = await runCli(['lint', '/nonexistent/nodeclass.yaml']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('/nonexistent/nodeclass.yaml');
  });
});

describe('tenon instance-types', () => {
  it('reads a multi-document example, fills in the playground cluster name, and shows arch and GPUs', async () => {
    const run = await runCli(['instance-types', '--nodepool', file('example.yaml', example)]);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+ARCH\s+GPU\s+ZONES/);
    expect(lines.find((l) => l.startsWith('g4dn.xlarge '))).toMatch(/^g4dn\.xlarge\s+amd64\s+1 nvidia t4\s/);
    expect(lines.find((l) => l.startsWith('m7g.large '))).toMatch(/^m7g\.large\s+arm64\s+-\s/);
  });

  it('asks which NodePool when a file holds several, in one line', async () => {
    const two = `${example}---\napiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: other}\nspec: {template: {spec: {requirements: [], nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}}}}\n`;
    const run = await runCli(['instance-types', file('two.yaml', two)]);
    expect(run).toMatchObject({ exitCode: 2, stdout: '' });
    expect(run.stderr).toBe(
      'tenon instance-types: the files hold 2 NodePools (gpu, other): choose one with --name NAME\n',
    );
    expect((await runCli(['instance-types', file('two.yaml', two), '--name', 'gpu'])).exitCode).toBe(0);
  });

  it('stops quietly when piped to head', () => {
    const tenon = join(import.meta.dirname, '../../bin/tenon.js');
    const run = spawnSync('sh', ['-c', `"${process.execPath}" "${tenon}" instance-types | head -n 2`], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toHaveLength(2);
  });
});
