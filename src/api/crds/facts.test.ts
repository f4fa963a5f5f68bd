import { describe, expect, test } from 'vitest';
import { compareFacts, crdFacts } from './facts.js';
import { nodePoolCrd } from './index.js';
import type { CustomResourceDefinition } from './types.js';

function edited(edit: (crd: CustomResourceDefinition) => void): CustomResourceDefinition {
  const crd = nodePoolCrd();
  edit(crd);
  return crd;
}

const spec = (crd: CustomResourceDefinition): Record<string, { maximum?: number; description?: string }> =>
  (crd.spec.versions[0]?.schema?.openAPIV3Schema.properties?.spec?.properties ?? {}) as Record<
    string,
    { maximum?: number }
  >;

describe('CRD facts', () => {
  test('a changed bound is one difference naming the field and keyword', () => {
    const changed = edited((c) => {
      const weight = spec(c).weight;
      if (weight) weight.maximum = 99;
    });
    const { differences, matching, total } = compareFacts(crdFacts(changed), crdFacts(nodePoolCrd()));
    expect(differences).toEqual([{ key: 'nodepools.karpenter.sh v1 .spec.weight maximum', ours: '99', theirs: '100' }]);
    expect(matching).toBe(total - 1);
  });

  test('a description is prose, not a fact', () => {
    const changed = edited((c) => {
      const weight = spec(c).weight;
      if (weight) weight.description = 'something else';
    });
    expect(compareFacts(crdFacts(changed), crdFacts(nodePoolCrd())).differences).toEqual([]);
  });

  test('a removed field shows each of its facts as missing on our side', () => {
    const changed = edited((c) => {
      delete (spec(c) as Record<string, unknown>).replicas;
    });
    const keys = compareFacts(crdFacts(changed), crdFacts(nodePoolCrd())).differences.map((d) => [d.key, d.ours]);
    expect(keys).toEqual([
      ['nodepools.karpenter.sh v1 .spec.replicas format', undefined],
      ['nodepools.karpenter.sh v1 .spec.replicas minimum', undefined],
      ['nodepools.karpenter.sh v1 .spec.replicas type', undefined],
    ]);
  });

  test('a CEL rule is keyed by its text and carries its message', () => {
    const facts = crdFacts(nodePoolCrd());
    expect(facts.get('nodepools.karpenter.sh v1 .spec rule !has(self.replicas) || !has(self.weight)')).toBe(
      JSON.stringify({ message: "'weight' is not supported on static NodePools" }),
    );
  });
});
