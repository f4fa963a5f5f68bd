import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { describe, expect, test } from 'vitest';
import { crdFileName, crdYaml, tenonCrds, tenonCrdsYaml } from '../../api/index.js';

const chartDir = join(import.meta.dirname, '../../../charts/tenon/crds');

describe('charts/tenon/crds', () => {
  test.each(tenonCrds().map((c) => [crdFileName(c), c] as const))(
    '%s is current (regenerate with `tenon crds --out-dir charts/tenon/crds`)',
    (file, crd) => {
      expect(readFileSync(join(chartDir, file), 'utf8')).toBe(crdYaml(crd));
    },
  );

  test('holds exactly the five CRDs under upstream file names', () => {
    expect(readdirSync(chartDir).sort()).toEqual([
      'autoscaling.x-k8s.io_capacitybuffers.yaml',
      'karpenter.k8s.aws_ec2nodeclasses.yaml',
      'karpenter.sh_nodeclaims.yaml',
      'karpenter.sh_nodeoverlays.yaml',
      'karpenter.sh_nodepools.yaml',
    ]);
  });
});

describe('tenon crds output', () => {
  const docs = YAML.parseAllDocuments(tenonCrdsYaml()).map(
    (d) => d.toJS() as { metadata: { name: string }; spec: Record<string, unknown> },
  );

  test('is five CRD documents with upstream names, scope and status subresource', () => {
    expect(docs.map((d) => d.metadata.name)).toEqual([
      'nodepools.karpenter.sh',
      'nodeclaims.karpenter.sh',
      'ec2nodeclasses.karpenter.k8s.aws',
      'nodeoverlays.karpenter.sh',
      'capacitybuffers.autoscaling.x-k8s.io',
    ]);
    for (const d of docs.slice(0, 3)) {
      expect(d.spec.scope).toBe('Cluster');
      expect(d.spec.versions).toMatchObject([
        { name: 'v1', served: true, storage: true, subresources: { status: {} } },
      ]);
      expect((d.spec.names as { categories: string[] }).categories).toEqual(['karpenter']);
    }
    expect(docs[3]?.spec.versions).toMatchObject([{ name: 'v1alpha1', served: true, storage: true }]);
    expect(docs[4]?.spec).toMatchObject({
      scope: 'Namespaced',
      versions: [{ name: 'v1beta1', served: true, storage: true }],
    });
    expect((docs[2]?.spec.names as { shortNames: string[] }).shortNames).toEqual(['ec2nc', 'ec2ncs']);
  });

  test('carries the schema the validator uses, with no TypeBox leftovers', () => {
    const text = tenonCrdsYaml();
    expect(text).not.toContain('[Kind]');
    expect(text).toContain('rule: self.all(x, has(x.schedule) == has(x.duration))');
    expect(text).toContain('x-kubernetes-int-or-string: true');
  });
});
