import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExistingNode, LabelSelector, Pod, PodAffinityTerm } from '../model.js';
import { solve } from '../solver/solve.js';
import { makeInstanceType, makeNodePool, makePod } from '../testing/factories.js';
import { checkPlacement } from './check.js';

/** Violations under kube-scheduler's topology domains and under Karpenter's (the solver must satisfy both). */
const violations = (...args: Parameters<typeof checkPlacement>): unknown[] => [
  ...checkPlacement(args[0], args[1]),
  ...checkPlacement(args[0], args[1], { domains: 'karpenter' }),
];

const zones = ['z1', 'z2', 'z3'];
const types = [
  makeInstanceType({ name: 's', cpu: 2, memGi: 4, price: 0.1, zones }),
  makeInstanceType({ name: 'm', cpu: 4, memGi: 16, price: 0.22, zones }),
  makeInstanceType({ name: 'l', cpu: 16, memGi: 64, price: 0.8, zones, spotPrice: 0.3 }),
];
const armTypes = [...types, makeInstanceType({ name: 'g', cpu: 4, memGi: 16, price: 0.18, zones, arch: 'arm64' })];

const podArb = fc.record({
  cpu: fc.constantFrom('100m', '500m', '1', '3'),
  mem: fc.constantFrom('256Mi', '1Gi', '4Gi'),
  zone: fc.option(fc.constantFrom(...zones), { nil: undefined }),
  tolerate: fc.boolean(),
  port: fc.boolean(),
});

function build(
  specs: { cpu: string; mem: string; zone: string | undefined; tolerate: boolean; port: boolean }[],
): Pod[] {
  return specs.map((s, i) => {
    const p = makePod({
      name: `p${i}`,
      cpu: s.cpu,
      memory: s.mem,
      ...(s.zone ? { nodeSelector: { 'topology.kubernetes.io/zone': s.zone } } : {}),
      ...(s.tolerate ? { tolerations: [{ key: 'team', operator: 'Exists' }] } : {}),
    });
    if (s.port)
      p.spec.containers[0] = {
        name: 'c',
        resources: { requests: { cpu: s.cpu, memory: s.mem } },
        ports: [{ containerPort: 80, hostPort: 9000 }],
      };
    return p;
  });
}

/** How a pod sharing one zone spread group filters nodes (nodeAffinityPolicy Honor counts only nodes it allows). */
const filterArb = fc.oneof(
  fc.constant({}),
  fc.constantFrom(...zones).map((z): Partial<Pod['spec']> => ({ nodeSelector: { 'topology.kubernetes.io/zone': z } })),
  fc.subarray(zones, { minLength: 1, maxLength: 2 }).map((zs): Partial<Pod['spec']> => ({
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: zs }] },
          ],
        },
      },
    },
  })),
  fc.constantFrom('amd64', 'arm64').map((a): Partial<Pod['spec']> => ({ nodeSelector: { 'kubernetes.io/arch': a } })),
);
const spreadArb = fc.record({
  cpu: fc.constantFrom('500m', '1', '3'),
  filter: filterArb,
  owner: fc.boolean(),
  /** Tolerates the tainted NodePool's taint; with nodeTaintsPolicy Honor the owner then counts its nodes. */
  tolerate: fc.boolean(),
  taintsPolicy: fc.constantFrom('Honor' as const, 'Ignore' as const, undefined),
});

/** Pods with zero to three required affinity terms on zone or hostname, over labels drawn from a few values. */
const termSelectors: LabelSelector[] = [
  { matchLabels: { app: 'a' } },
  { matchLabels: { app: 'b' } },
  { matchLabels: { tier: 'x' } },
  { matchLabels: { tier: 'y' } },
  { matchLabels: { app: 'a', tier: 'x' } },
];
const affinityTermArb = fc.record({
  topologyKey: fc.constantFrom('topology.kubernetes.io/zone', 'kubernetes.io/hostname'),
  labelSelector: fc.constantFrom(...termSelectors),
});
const affinePodArb = fc.record({
  cpu: fc.constantFrom('100m', '500m', '1'),
  app: fc.constantFrom('a', 'b'),
  tier: fc.constantFrom('x', 'y'),
  terms: fc.array(affinityTermArb, { maxLength: 3 }),
});
const runningArb = fc.record({
  zone: fc.constantFrom(...zones),
  app: fc.constantFrom('a', 'b', 'c'),
  tier: fc.constantFrom('x', 'y', 'z'),
});

function affinePods(specs: { cpu: string; app: string; tier: string; terms: PodAffinityTerm[] }[]): Pod[] {
  return specs.map((s, i) =>
    makePod({
      name: `f${i}`,
      cpu: s.cpu,
      labels: { app: s.app, tier: s.tier },
      ...(s.terms.length > 0
        ? { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: s.terms } } }
        : {}),
    }),
  );
}

function runningNodes(specs: { zone: string; app: string; tier: string }[]): ExistingNode[] {
  return specs.map((s, i) => ({
    name: `n${i}`,
    labels: {
      'kubernetes.io/hostname': `n${i}`,
      'topology.kubernetes.io/zone': s.zone,
      'karpenter.sh/nodepool': 'default',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/os': 'linux',
    },
    allocatable: { cpu: '2', memory: '4Gi', pods: '110' },
    pods: [makePod({ name: `r${i}`, cpu: '100m', labels: { app: s.app, tier: s.tier } })],
  }));
}

/** Pods sharing one zone spread selector, tolerating a team taint or not, honoring node taints or not. */
const taintSpreadArb = fc.record({
  cpu: fc.constantFrom('500m', '1', '3'),
  tolerate: fc.boolean(),
  policy: fc.constantFrom('Honor' as const, 'Ignore' as const),
  owner: fc.boolean(),
});
const taintedRunningArb = fc.array(
  fc.record({ zone: fc.constantFrom(...zones), pods: fc.integer({ min: 0, max: 3 }) }),
  { maxLength: 2 },
);

function taintSpreadPods(
  specs: { cpu: string; tolerate: boolean; policy: 'Honor' | 'Ignore'; owner: boolean }[],
): Pod[] {
  return specs.map((s, i) => {
    const spread = {
      maxSkew: 1,
      topologyKey: 'topology.kubernetes.io/zone',
      whenUnsatisfiable: 'DoNotSchedule' as const,
      labelSelector: { matchLabels: { app: 'web' } },
      nodeTaintsPolicy: s.policy,
    };
    return makePod({
      name: `w${i}`,
      cpu: s.cpu,
      labels: { app: 'web' },
      ...(s.tolerate ? { tolerations: [{ key: 'team', operator: 'Exists' as const }] } : {}),
      ...(s.owner ? { topologySpreadConstraints: [spread] } : {}),
    });
  });
}

function taintedNodes(specs: { zone: string; pods: number }[]): ExistingNode[] {
  return specs.map((s, i) => ({
    name: `t${i}`,
    labels: {
      'kubernetes.io/hostname': `t${i}`,
      'topology.kubernetes.io/zone': s.zone,
      'karpenter.sh/nodepool': 'tainted',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/os': 'linux',
    },
    allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
    taints: [{ key: 'team', effect: 'NoSchedule' as const }],
    pods: Array.from({ length: s.pods }, (_, j) =>
      makePod({
        name: `t${i}r${j}`,
        cpu: '100m',
        labels: { app: 'web' },
        tolerations: [{ key: 'team', operator: 'Exists' }],
      }),
    ),
  }));
}

describe('the current solver, judged by the independent checker', () => {
  it('one zone spread shared by pods with different node filters and tolerations, and pods it merely counts: no violations', () => {
    const spread = {
      maxSkew: 1,
      topologyKey: 'topology.kubernetes.io/zone',
      whenUnsatisfiable: 'DoNotSchedule' as const,
      labelSelector: { matchLabels: { app: 'web' } },
    };
    const tainted = makeNodePool({
      name: 'tainted',
      weight: 5,
      taints: [{ key: 'team', effect: 'NoSchedule' }],
      requirements: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z1', 'z2'] }],
    });
    fc.assert(
      fc.property(
        fc.array(spreadArb, { minLength: 1, maxLength: 20 }),
        fc.constantFrom('tenon', 'karpenter-ffd' as const),
        (specs, strategy) => {
          const pods = specs.map((s, i) =>
            makePod({
              name: `w${i}`,
              cpu: s.cpu,
              labels: { app: 'web' },
              ...s.filter,
              ...(s.tolerate ? { tolerations: [{ key: 'team', operator: 'Exists' as const }] } : {}),
              ...(s.owner ? { topologySpreadConstraints: [{ ...spread, nodeTaintsPolicy: s.taintsPolicy }] } : {}),
            }),
          );
          const input = { pods, nodePools: [tainted, makeNodePool()], instanceTypes: armTypes, strategy };
          const r = solve(input);
          expect(violations(input, r)).toEqual([]);
        },
      ),
      { numRuns: 150, seed: 17 },
    );
  });

  it('pods with several required affinity terms on zone and hostname, among running pods: no violations', () => {
    fc.assert(
      fc.property(
        fc.array(affinePodArb, { minLength: 1, maxLength: 16 }),
        fc.array(runningArb, { maxLength: 3 }),
        fc.constantFrom('tenon', 'karpenter-ffd' as const),
        (specs, running, strategy) => {
          const input = {
            pods: affinePods(specs),
            nodes: runningNodes(running),
            nodePools: [makeNodePool()],
            instanceTypes: types,
            strategy,
          };
          expect(checkPlacement(input, solve(input))).toEqual([]);
        },
      ),
      { numRuns: 200, seed: 23 },
    );
  });

  it('one zone spread shared by owners that tolerate a tainted NodePool and owners that do not, honoring taints or not: no violations', () => {
    fc.assert(
      fc.property(
        fc.array(taintSpreadArb, { minLength: 1, maxLength: 18 }),
        taintedRunningArb,
        fc.constantFrom('tenon', 'karpenter-ffd' as const),
        (specs, running, strategy) => {
          const pools = [
            makeNodePool({
              name: 'tainted',
              weight: 5,
              taints: [{ key: 'team', effect: 'NoSchedule' }],
              requirements: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z1', 'z2'] }],
            }),
            makeNodePool(),
          ];
          const input = {
            pods: taintSpreadPods(specs),
            nodes: taintedNodes(running),
            nodePools: pools,
            instanceTypes: types,
            strategy,
          };
          expect(checkPlacement(input, solve(input))).toEqual([]);
        },
      ),
      { numRuns: 150, seed: 29 },
    );
  });

  it('random pods with resources, zone selectors, taints and host ports: no violations', () => {
    fc.assert(
      fc.property(
        fc.array(podArb, { minLength: 1, maxLength: 25 }),
        fc.constantFrom('tenon', 'karpenter-ffd' as const),
        (specs, strategy) => {
          const input = {
            pods: build(specs),
            nodePools: [
              makeNodePool({ name: 'tainted', weight: 5, taints: [{ key: 'team', effect: 'NoSchedule' }] }),
              makeNodePool(),
            ],
            instanceTypes: types,
            strategy,
          };
          expect(violations(input, solve(input))).toEqual([]);
        },
      ),
      { numRuns: 80, seed: 11 },
    );
  });

  it('hostname anti-affinity and self-selecting zone spread: no violations', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 12 }), (anti, spread) => {
        const pods = [
          ...Array.from({ length: anti }, (_, i) =>
            makePod({
              name: `a${i}`,
              cpu: '500m',
              labels: { app: 'a' },
              affinity: {
                podAntiAffinity: {
                  requiredDuringSchedulingIgnoredDuringExecution: [
                    { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'a' } } },
                  ],
                },
              },
            }),
          ),
          ...Array.from({ length: spread }, (_, i) =>
            makePod({
              name: `s${i}`,
              cpu: '500m',
              labels: { app: 's' },
              topologySpreadConstraints: [
                {
                  maxSkew: 1,
                  topologyKey: 'topology.kubernetes.io/zone',
                  whenUnsatisfiable: 'DoNotSchedule',
                  labelSelector: { matchLabels: { app: 's' } },
                },
              ],
            }),
          ),
        ];
        const input = { pods, nodePools: [makeNodePool()], instanceTypes: types };
        expect(violations(input, solve(input))).toEqual([]);
      }),
      { numRuns: 40, seed: 3 },
    );
  });
});
