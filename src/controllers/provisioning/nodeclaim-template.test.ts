import { stringify } from 'yaml';
import { describe, expect, test } from 'vitest';
import { minimalNodePool } from '../../api/fixtures/index.js';
import { tenonCrds } from '../../api/crds/index.js';
import { validateDocuments } from '../../api/validation/documents.js';
import type { StoredNodePool } from '../../state/informers.js';
import { staticClaim } from '../nodepool/static/members.js';
import { nodeClaimFor } from './nodeclaim-template.js';

describe('the NodeClaim made for a planned NodeClaim', () => {
  test('keeps Gte and Lte requirements as written, and the NodeClaim CRD accepts them', () => {
    const pool = minimalNodePool() as unknown as StoredNodePool;
    pool.spec.template.spec.requirements = [
      { key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gte', values: ['4'] },
      { key: 'karpenter.k8s.aws/instance-memory', operator: 'Lte', values: ['32768'] },
    ];
    const nc = nodeClaimFor(pool, staticClaim(pool));
    expect(nc.spec.requirements).toEqual(
      expect.arrayContaining([
        { key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gte', values: ['4'] },
        { key: 'karpenter.k8s.aws/instance-memory', operator: 'Lte', values: ['32768'] },
      ]),
    );
    const [result] = validateDocuments({
      text: stringify({ ...nc, metadata: { ...nc.metadata, name: 'x' } }),
      crds: tenonCrds(),
    });
    expect(result?.status).toBe('validated');
    expect(result?.errors).toEqual([]);
  });
});
