// Node selector, node affinity (required and preferred), requirement operators, minValues and preference
// relaxation, after the cases of Karpenter's scheduling suite (suite_test.go "Custom Constraints", "Preferential
// Fallback", "minValues").
import { describe, expect, it } from 'vitest';
import type { NodeSelectorRequirement, Pod } from '../model.js';
import { makeInstanceType, makeNodePool, makePod, smallCatalog } from '../testing/factories.js';
import { landings } from '../testing/placement.js';
import { solve } from './solve.js';

const zone = 'topology.kubernetes.io/zone';
const arch = 'kubernetes.io/arch';
const it1 = (r: NodeSelectorRequirement[]): Pod['spec']['affinity'] => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: r }] } },
});
const cpuLabel = 'karpenter.k8s.aws/instance-cpu';
const mixedArch = () => [
  ...smallCatalog().map((t) => ({ ...t, labels: { ...t.labels, [cpuLabel]: t.capacity['cpu'] ?? '' } })),
  makeInstanceType({ name: 'g.4x', cpu: 4, memGi: 16, price: 0.15, arch: 'arm64', labels: { [cpuLabel]: '5' } }),
];

function zoneOf(pod: Pod, opts: { pool?: ReturnType<typeof makeNodePool> } = {}): string | undefined {
  const r = solve({ pods: [pod], nodePools: [opts.pool ?? makeNodePool()], instanceTypes: mixedArch() });
  // An unconstrained NodeClaim may launch in any allowed zone; the cheapest offering is where it will go.
  return landings(r).get(`default/${pod.metadata.name}`)?.claim?.cheapest.zone;
}

describe('node selector and required node affinity', () => {
  it.each([
    ['In', { nodeSelector: { [zone]: 'test-zone-b' } }, 'test-zone-b'],
    ['affinity In', { affinity: it1([{ key: zone, operator: 'In', values: ['test-zone-c'] }]) }, 'test-zone-c'],
    [
      'NotIn',
      { affinity: it1([{ key: zone, operator: 'NotIn', values: ['test-zone-a', 'test-zone-b'] }]) },
      'test-zone-c',
    ],
    [
      'deprecated beta label',
      { nodeSelector: { 'failure-domain.beta.kubernetes.io/zone': 'test-zone-a' } },
      'test-zone-a',
    ],
  ] as const)('schedules a pod with a compatible %s requirement in that zone', (_n, spec, want) => {
    expect(zoneOf(makePod(spec as Partial<Pod['spec']>))).toBe(want);
  });

  it.each([
    ['an unknown zone', { nodeSelector: { [zone]: 'unknown' } }, 'requirements'],
    ['a label no instance type or NodePool defines', { nodeSelector: { 'example.com/unknown': 'x' } }, 'requirements'],
    [
      'DoesNotExist on a label every node has',
      { affinity: it1([{ key: arch, operator: 'DoesNotExist' }]) },
      'requirements',
    ],
    ['Gt above every size', { affinity: it1([{ key: cpuLabel, operator: 'Gt', values: ['64'] }]) }, 'requirements'],
  ] as const)('does not schedule a pod requiring %s, and says which constraint', (_n, spec, constraint) => {
    const pod = makePod(spec as Partial<Pod['spec']>);
    const r = solve({ pods: [pod], nodePools: [makeNodePool()], instanceTypes: mixedArch() });
    expect(r.newNodeClaims).toEqual([]);
    expect(r.unplaced[0]?.reasons.map((x) => x.constraint)).toContain(constraint);
    expect(r.unplaced[0]?.reasons[0]?.message).toMatch(/incompatible with nodepool "default"/);
  });

  const numeric: [string, NodeSelectorRequirement[], string[]][] = [
    ['Gt 4', [{ key: cpuLabel, operator: 'Gt', values: ['4'] }], ['g.4x', 'm.8x', 'm.16x', 'm.32x', 'm.64x']],
    [
      'Gte 5 and Lte 5',
      [
        { key: cpuLabel, operator: 'Gte', values: ['5'] },
        { key: cpuLabel, operator: 'Lte', values: ['5'] },
      ],
      ['g.4x'],
    ],
    ['Lt 2', [{ key: cpuLabel, operator: 'Lt', values: ['2'] }], ['m.1x']],
    ['arch In arm64', [{ key: arch, operator: 'In', values: ['arm64'] }], ['g.4x']],
  ];
  it.each(numeric)('narrows instance types by %s', (_n, reqs, want) => {
    const pod = makePod({ cpu: '100m', memory: '100Mi', affinity: it1(reqs) });
    const r = solve({ pods: [pod], nodePools: [makeNodePool()], instanceTypes: mixedArch() });
    expect(r.newNodeClaims[0]?.instanceTypeOptions).toEqual(want);
  });

  it('does not schedule a pod whose requirement falls outside the NodePool requirements', () => {
    const pool = makeNodePool({ requirements: [{ key: zone, operator: 'In', values: ['test-zone-a'] }] });
    expect(zoneOf(makePod({ nodeSelector: { [zone]: 'test-zone-b' } }), { pool })).toBeUndefined();
    expect(zoneOf(makePod({}), { pool })).toBe('test-zone-a');
  });

  it('tries later required node-affinity terms when the first cannot be met (terms are ORed)', () => {
    const pod = makePod({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: zone, operator: 'In', values: ['nowhere'] }] },
              { matchExpressions: [{ key: zone, operator: 'In', values: ['test-zone-b'] }] },
            ],
          },
        },
      },
    });
    expect(zoneOf(pod)).toBe('test-zone-b');
  });
});

describe('preferred node affinity and relaxation', () => {
  const preferred = (weight: number, values: string[]) => ({
    weight,
    preference: { matchExpressions: [{ key: zone, operator: 'In' as const, values }] },
  });

  it('honours a satisfiable preference', () => {
    expect(
      zoneOf(
        makePod({
          affinity: {
            nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferred(1, ['test-zone-c'])] },
          },
        }),
      ),
    ).toBe('test-zone-c');
  });

  it('relaxes an unsatisfiable preference and still schedules', () => {
    expect(
      zoneOf(
        makePod({
          affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferred(1, ['nowhere'])] } },
        }),
      ),
    ).toBeDefined();
  });

  it('drops the heaviest preference first and keeps the lighter one that can be met', () => {
    const pod = makePod({
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [preferred(1, ['test-zone-b']), preferred(50, ['nowhere'])],
        },
      },
    });
    expect(zoneOf(pod)).toBe('test-zone-b');
  });

  it('tolerates PreferNoSchedule taints only after relaxing everything else', () => {
    const pool = makeNodePool({ taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] });
    const r = solve({ pods: [makePod({})], nodePools: [pool], instanceTypes: smallCatalog() });
    expect(r.unplaced).toEqual([]);
  });
});

describe('minValues', () => {
  it('keeps enough instance types in the NodeClaim to satisfy minValues', () => {
    const pool = makeNodePool({
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'Exists', minValues: 4 }],
    });
    const r = solve({ pods: [makePod({ cpu: '1' })], nodePools: [pool], instanceTypes: smallCatalog() });
    expect(r.newNodeClaims[0]?.instanceTypeOptions.length).toBeGreaterThanOrEqual(4);
    expect(r.newNodeClaims[0]?.requirements.find((q) => q.key === 'node.kubernetes.io/instance-type')?.minValues).toBe(
      4,
    );
  });

  it('does not schedule when the fitting instance types cannot meet minValues, and says so', () => {
    const pool = makeNodePool({
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'Exists', minValues: 3 }],
    });
    const r = solve({ pods: [makePod({ cpu: '20' })], nodePools: [pool], instanceTypes: smallCatalog() });
    expect(r.newNodeClaims).toEqual([]);
    expect(r.unplaced[0]?.reasons.map((x) => x.message).join(' ')).toMatch(/minValues/);
  });
});
