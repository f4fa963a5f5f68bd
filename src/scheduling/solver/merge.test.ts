// The hostname-aware improvement step (merge.ts): pods tied to their node by hostname spread or anti-affinity move
// between planned NodeClaims only where every hostname constraint still holds, and only when the price drops.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPlacement } from '../check/check.js';
import type { Pod, SchedulingInput } from '../model.js';
import { costWorkloads } from '../../../bench/scheduling/cost-workloads.js';
import { makeInstanceType, makeNodePool, makePod } from '../testing/factories.js';
import { pack, solve } from './solve.js';

const hostname = 'kubernetes.io/hostname';
const zone = 'topology.kubernetes.io/zone';
const zones = ['z1', 'z2'];
// Priced linearly in size: merging saves only where the greedy packing left room unused.
const catalog = [
  makeInstanceType({ name: 's', cpu: 2, memGi: 4, price: 0.1, zones }),
  makeInstanceType({ name: 'm', cpu: 4, memGi: 8, price: 0.2, zones }),
  makeInstanceType({ name: 'hm', cpu: 4, memGi: 32, price: 0.3, zones }),
];

/** Both checkers' violations: kube-scheduler's topology domains and Karpenter's. */
const violations = (input: SchedulingInput, r: ReturnType<typeof solve>): unknown[] => [
  ...checkPlacement(input, r),
  ...checkPlacement(input, r, { domains: 'karpenter' }),
];

const anti = (name: string, cpu: string, memory = '1Gi'): Pod =>
  makePod({
    name,
    cpu,
    memory,
    labels: { app: 'anti' },
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: hostname, labelSelector: { matchLabels: { app: 'anti' } } },
        ],
      },
    },
  });
const spread = (name: string, cpu: string, selects: string, memory = '1Gi'): Pod =>
  makePod({
    name,
    cpu,
    memory,
    labels: { tier: 'web' },
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: hostname,
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { tier: selects } },
      },
    ],
  });
const generic = (name: string, cpu: string, tier = 'batch', memory = '1Gi'): Pod =>
  makePod({ name, cpu, memory, labels: { tier } });

describe('merge: moving pods tied to their node', () => {
  const cases: { name: string; pods: Pod[]; before: number; after: number; nodes: number }[] = [
    {
      name: 'an anti-affinity pod, a hostname-spread pod and a generic pod share one node',
      pods: [anti('a0', '1500m'), generic('g1', '1'), spread('h2', '1500m', 'web')],
      before: 0.3,
      after: 0.2,
      nodes: 1,
    },
    {
      name: 'two anti-affinity pods and two hostname-spread pods selecting each other: two nodes, one of each per node',
      pods: [
        anti('a0', '1500m'),
        anti('a1', '1500m'),
        generic('g2', '1'),
        spread('h3', '1500m', 'web'),
        spread('h4', '500m', 'web'),
      ],
      before: 0.4,
      after: 0.3,
      nodes: 2,
    },
    {
      name: 'a pod counted by a hostname spread stays off the nodes of its owners (nothing to gain)',
      pods: [spread('h0', '1500m', 'web'), spread('h1', '1500m', 'web'), generic('g2', '1', 'web'), generic('g3', '1')],
      before: 0.3,
      after: 0.3,
      nodes: 3,
    },
  ];
  it.each(cases)('$name', ({ pods, before, after, nodes }) => {
    const input: SchedulingInput = { pods, nodePools: [makeNodePool()], instanceTypes: catalog };
    const greedy = pack(input, { strategy: 'tenon', targets: true, merge: false });
    const merged = pack(input, { strategy: 'tenon', targets: true });
    expect(greedy.cost).toBeCloseTo(before, 9);
    expect(merged.cost).toBeCloseTo(after, 9);
    expect(merged.newNodeClaims).toHaveLength(nodes);
    expect(merged.unplaced).toEqual([]);
    expect(violations(input, merged)).toEqual([]);
  });

  const kinds = [
    'generic',
    'zone-spread',
    'hostname-spread',
    'zone-affinity',
    'hostname-affinity',
    'anti-affinity',
    'host-port',
  ] as const;
  const podArb = fc.record({
    kind: fc.constantFrom(...kinds),
    cpu: fc.constantFrom('100m', '500m', '1', '1500m'),
    memory: fc.constantFrom('256Mi', '1Gi', '4Gi', '10Gi'),
    label: fc.constantFrom('a', 'b', 'c'),
    selects: fc.constantFrom('a', 'b', 'c'),
    maxSkew: fc.constantFrom(1, 1, 2),
  });
  type Spec = {
    kind: (typeof kinds)[number];
    cpu: string;
    memory: string;
    label: string;
    selects: string;
    maxSkew: number;
  };

  /** Karpenter's diverse mix in small: each pod labelled, its constraint selecting a label drawn apart. */
  function diverse(specs: Spec[]): Pod[] {
    return specs.map((s, i) => {
      const base = { name: `d${i}`, cpu: s.cpu, memory: s.memory, labels: { my: s.label } };
      const term = (key: string): { topologyKey: string; labelSelector: { matchLabels: Record<string, string> } } => ({
        topologyKey: key,
        labelSelector: { matchLabels: { my: s.selects } },
      });
      const spreadOn = (key: string): Partial<Pod['spec']> => ({
        topologySpreadConstraints: [
          {
            maxSkew: s.maxSkew,
            topologyKey: key,
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { my: s.selects } },
          },
        ],
      });
      switch (s.kind) {
        case 'generic':
          return makePod(base);
        case 'zone-spread':
          return makePod({ ...base, ...spreadOn(zone) });
        case 'hostname-spread':
          return makePod({ ...base, ...spreadOn(hostname) });
        case 'zone-affinity':
          return makePod({
            ...base,
            affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(zone)] } },
          });
        case 'hostname-affinity':
          return makePod({
            ...base,
            affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(hostname)] } },
          });
        case 'anti-affinity':
          return makePod({
            ...base,
            labels: { app: 'nginx' },
            affinity: {
              podAntiAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: [
                  { topologyKey: hostname, labelSelector: { matchLabels: { app: 'nginx' } } },
                ],
              },
            },
          });
        case 'host-port':
          return makePod({
            ...base,
            containers: [
              {
                name: 'c',
                resources: { requests: { cpu: s.cpu, memory: s.memory } },
                ports: [{ containerPort: 80, hostPort: 8080 }],
              },
            ],
          });
      }
    });
  }

  it('on small diverse mixes: never a higher price than without it, the same pods placed, no violations, deterministic', () => {
    fc.assert(
      fc.property(fc.array(podArb, { minLength: 1, maxLength: 30 }), fc.boolean(), (specs, targets) => {
        const input: SchedulingInput = { pods: diverse(specs), nodePools: [makeNodePool()], instanceTypes: catalog };
        const greedy = pack(input, { strategy: 'tenon', targets, merge: false });
        const merged = pack(input, { strategy: 'tenon', targets });
        expect(merged.unplaced.map((u) => u.pod)).toEqual(greedy.unplaced.map((u) => u.pod));
        expect(merged.cost).toBeLessThanOrEqual(greedy.cost + 1e-9);
        expect(violations(input, merged)).toEqual([]);
        expect(pack(input, { strategy: 'tenon', targets })).toEqual(merged);
      }),
      { numRuns: 150, seed: 31 },
    );
  });

  it('ruin and recreate: on the cost bench diverse mix, cheaper than moves and swaps alone, every constraint kept', () => {
    const w = costWorkloads.find((x) => x.name === 'diverse');
    if (!w) throw new Error('no diverse workload');
    const input = w.build(120, 42);
    const moves = pack(input, { strategy: 'tenon', targets: false, ruin: false });
    const ruined = pack(input, { strategy: 'tenon', targets: false });
    expect(ruined.unplaced).toEqual(moves.unplaced);
    expect(ruined.cost).toBeLessThan(moves.cost - 1e-6);
    expect(violations(input, ruined)).toEqual([]);
    expect(pack(input, { strategy: 'tenon', targets: false })).toEqual(ruined);
  });
});
