import { describe, expect, it } from 'vitest';
import { Annotations } from '../../src/api/index.js';
import { minimalNodePool } from '../../src/api/fixtures/index.js';
import { requirementsDrift, staticDrift } from '../../src/controllers/disruption/marking/drift.js';
import { nodePoolHash, nodePoolHashVersion } from '../../src/controllers/nodepool/hash/nodepool-hash.js';
import { expiresAt } from '../../src/controllers/nodeclaim/expiration/controller.js';
import type { StoredNodeClaim, StoredNodePool } from '../../src/state/informers.js';

function pool(): StoredNodePool {
  const p = minimalNodePool() as unknown as StoredNodePool;
  p.spec.template.spec.requirements = [
    { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
    { key: 'karpenter.sh/capacity-type', operator: 'NotIn', values: ['spot'] },
    { key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gt', values: ['2'] },
  ];
  return p;
}

function claim(
  annotations: Record<string, string>,
  spec: Partial<StoredNodeClaim['spec']> = {},
  created = '2026-01-01T00:00:00Z',
): StoredNodeClaim {
  return {
    metadata: { name: 'nc', annotations, creationTimestamp: created },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      requirements: [],
      ...spec,
    },
  } as StoredNodeClaim;
}

describe('drift detection', () => {
  it('static drift: the template hash changed (same hash version only)', () => {
    const p = pool();
    const launched = claim({
      [Annotations.nodePoolHash]: nodePoolHash(p),
      [Annotations.nodePoolHashVersion]: nodePoolHashVersion,
    });
    expect(staticDrift(launched, p)).toBeUndefined();
    p.spec.template.spec.taints = [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }];
    expect(staticDrift(launched, p)?.reason).toBe('NodePoolDrifted');
    const otherVersion = claim({ [Annotations.nodePoolHash]: 'old', [Annotations.nodePoolHashVersion]: 'v0' });
    expect(staticDrift(otherVersion, p)).toBeUndefined();
  });

  it.each<[Record<string, string>, string | undefined]>([
    [
      {
        'kubernetes.io/arch': 'amd64',
        'karpenter.sh/capacity-type': 'on-demand',
        'karpenter.k8s.aws/instance-cpu': '4',
      },
      undefined,
    ],
    [
      {
        'kubernetes.io/arch': 'arm64',
        'karpenter.sh/capacity-type': 'on-demand',
        'karpenter.k8s.aws/instance-cpu': '4',
      },
      'kubernetes.io/arch',
    ],
    [
      { 'kubernetes.io/arch': 'amd64', 'karpenter.sh/capacity-type': 'spot', 'karpenter.k8s.aws/instance-cpu': '4' },
      'karpenter.sh/capacity-type',
    ],
    [
      {
        'kubernetes.io/arch': 'amd64',
        'karpenter.sh/capacity-type': 'on-demand',
        'karpenter.k8s.aws/instance-cpu': '2',
      },
      'karpenter.k8s.aws/instance-cpu',
    ],
    [{ 'karpenter.sh/capacity-type': 'on-demand' }, 'kubernetes.io/arch'],
  ])('requirements drift for %j: %s', (labels, key) => {
    const found = requirementsDrift(labels, pool());
    expect(found?.reason === undefined ? undefined : found.message.match(/label (\S+)=/)?.[1]).toBe(key);
    if (key) expect(found?.reason).toBe('RequirementsDrifted');
  });
});

describe('expiration', () => {
  it.each<[string | undefined, number | undefined]>([
    [undefined, Date.parse('2026-01-31T00:00:00Z')], // the API default, 720h
    ['24h', Date.parse('2026-01-02T00:00:00Z')],
    ['90m', Date.parse('2026-01-01T01:30:00Z')],
    ['Never', undefined],
  ])('expireAfter %s expires at %s', (after, at) => {
    expect(expiresAt(claim({}, after === undefined ? {} : { expireAfter: after }))).toBe(at);
  });
});
