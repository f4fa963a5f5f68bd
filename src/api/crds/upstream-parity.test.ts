import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import YAML from 'yaml';
import { compareFacts, crdFacts, type CrdFacts } from './facts.js';
import { tenonCrds } from './index.js';
import type { CustomResourceDefinition } from './types.js';

// The pinned copy of Karpenter's CRDs (see its README); scripts/refresh-upstream-crds.sh updates it.
const pinned = join(import.meta.dirname, '../../../test/fixtures/upstream-crds/v1.15.1');

/**
 * Facts where Tenon deliberately differs from upstream, each with the ADR that says why. Empty today: see
 * docs/adr/0020-crd-parity-with-karpenter.md. A difference not listed here fails the test, and so does a
 * listed one that no longer differs.
 */
const deliberateDifferences: Record<string, string> = {};

function upstreamCrds(): CustomResourceDefinition[] {
  return readdirSync(pinned)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => YAML.parse(readFileSync(join(pinned, f), 'utf8')) as CustomResourceDefinition);
}

function factsOf(crds: CustomResourceDefinition[]): CrdFacts {
  return new Map(crds.flatMap((c) => [...crdFacts(c)]));
}

describe('CRDs equal Karpenter v1.15.1, fact by fact', () => {
  test('Tenon serves every upstream CRD, under the same name and version', () => {
    const ours = tenonCrds().map((c) => `${c.metadata.name} ${c.spec.versions.map((v) => v.name).join(',')}`);
    const theirs = upstreamCrds().map((c) => `${c.metadata.name} ${c.spec.versions.map((v) => v.name).join(',')}`);
    expect(ours.sort()).toEqual(theirs.sort());
  });

  test('every schema fact, printer column and subresource matches, except the documented differences', () => {
    const { differences } = compareFacts(factsOf(tenonCrds()), factsOf(upstreamCrds()));
    const undocumented = differences.filter((d) => !(d.key in deliberateDifferences));
    expect(undocumented).toEqual([]);
    const stale = Object.keys(deliberateDifferences).filter((k) => !differences.some((d) => d.key === k));
    expect(stale).toEqual([]);
  });
});
