// Properties over Karpenter's own benchmark pods (v1.15's mix and its preference pods): every pod is placed, as
// Karpenter places every one (its benchmark fails otherwise), under both preference policies; and the fleet depends
// only on what the pods are, not on their order, names or UIDs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkPlacement,
  solve,
  type Pod,
  type PreferencePolicy,
  type SchedulingInput,
  type SchedulingResult,
} from '../../src/scheduling/index.js';
import { ec2InstanceTypes } from './ec2-catalog.js';
import { benchmarkNodePool, fakeInstanceTypes, makeDiversePods, makePreferencePods } from './karpenter-workload.js';
import { Rng } from './random.js';

const fake = fakeInstanceTypes(400);

function benchmarkInput(pods: Pod[], preferencePolicy: PreferencePolicy = 'Respect'): SchedulingInput {
  return { pods, nodePools: [benchmarkNodePool()], instanceTypes: fake, preferencePolicy };
}

/** The fleet without pod identities: each NodeClaim's pool, launch choice, options, pod count and requests. */
function fleet(r: SchedulingResult): { cost: string; unplaced: number; nodeClaims: string[] } {
  const nodeClaims = r.newNodeClaims
    .map((c) =>
      [
        c.nodePool,
        c.cheapest.instanceType,
        c.cheapest.zone,
        c.cheapest.capacityType,
        c.pods.length,
        JSON.stringify(c.requests),
        c.instanceTypeOptions.join(','),
      ].join('|'),
    )
    .sort();
  return { cost: r.cost.toFixed(6), unplaced: r.unplaced.length, nodeClaims };
}

/** The same pods shuffled and renamed (names and UIDs drawn from `seed`). */
function shuffledAndRenamed(pods: readonly Pod[], seed: number): Pod[] {
  const rng = new Rng(seed);
  const out: Pod[] = pods.map((p, i) => {
    const name = `renamed-${rng.int(1e9).toString(36)}-${i}`;
    return { ...p, metadata: { ...p.metadata, name, uid: `${rng.int(1e9).toString(16)}-${name}` } };
  });
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j] as Pod, out[i] as Pod];
  }
  return out;
}

describe("Karpenter's benchmark mix", () => {
  it('places every pod, within every constraint, at any size and seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 5, max: 250 }), (seed, n) => {
        const input = benchmarkInput(makeDiversePods(n, { seed }));
        const r = solve(input);
        expect(r.unplaced.map((u) => u.reasons[0]?.message)).toEqual([]);
        expect(checkPlacement(input, r, { domains: 'karpenter' })).toEqual([]);
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it('places every preference pod under Respect and under Ignore', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 150 }),
        fc.constantFrom<PreferencePolicy>('Respect', 'Ignore'),
        (seed, n, policy) => {
          const r = solve(benchmarkInput(makePreferencePods(n, { seed }), policy));
          expect(r.unplaced).toEqual([]);
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);
});

describe('determinism', () => {
  it('gives the same fleet for the same pods in any order and under any names', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 5, max: 150 }),
        fc.integer(),
        (seed, n, shuffle) => {
          const pods = makeDiversePods(n, { seed });
          const a = solve(benchmarkInput(pods));
          const b = solve(benchmarkInput(shuffledAndRenamed(pods, shuffle)));
          expect(fleet(b)).toEqual(fleet(a));
        },
      ),
      { numRuns: 10 },
    );
  }, 120_000);

  it('holds on the real catalog, across the portfolio and the large-batch path', () => {
    const instanceTypes = ec2InstanceTypes({ zoneCount: 3, seed: 7 });
    const nodePools = [
      {
        name: 'default',
        template: {
          requirements: [
            { key: 'karpenter.k8s.aws/instance-category', operator: 'In' as const, values: ['c', 'm', 'r'] },
          ],
        },
      },
    ];
    for (const n of [80, 650]) {
      const pods = makeDiversePods(n, { seed: n });
      const a = solve({ pods, nodePools, instanceTypes });
      const b = solve({ pods: shuffledAndRenamed(pods, n + 1), nodePools, instanceTypes });
      expect(fleet(b)).toEqual(fleet(a));
    }
  }, 120_000);
});

describe('preference policy', () => {
  it('Ignore disregards preferences that Respect keeps while they can be met', () => {
    const pods = makePreferencePods(6, { seed: 3 });
    // Respect: the satisfiable preferences hold (zone test-zone-1, one pod per node); the unsatisfiable zone
    // anti-affinity is relaxed away.
    const respect = solve(benchmarkInput(pods, 'Respect'));
    expect(respect.unplaced).toEqual([]);
    expect(respect.newNodeClaims.map((c) => c.pods.length)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(new Set(respect.newNodeClaims.map((c) => c.cheapest.zone))).toEqual(new Set(['test-zone-1']));
    // Ignore: pods share nodes.
    const ignore = solve(benchmarkInput(pods, 'Ignore'));
    expect(ignore.unplaced).toEqual([]);
    expect(ignore.newNodeClaims.length).toBeLessThan(6);
  });

  it('Ignore leaves ScheduleAnyway spreads out and keeps DoNotSchedule ones', () => {
    const spreadPods = (when: 'ScheduleAnyway' | 'DoNotSchedule'): Pod[] =>
      Array.from({ length: 4 }, (_, i) => ({
        metadata: { name: `s-${i}`, namespace: 'default', labels: { app: 's' } },
        spec: {
          containers: [{ name: 'c', resources: { requests: { cpu: '100m', memory: '100Mi' } } }],
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'kubernetes.io/hostname',
              whenUnsatisfiable: when,
              labelSelector: { matchLabels: { app: 's' } },
            },
          ],
        },
      }));
    expect(solve(benchmarkInput(spreadPods('ScheduleAnyway'), 'Ignore')).newNodeClaims).toHaveLength(1);
    expect(solve(benchmarkInput(spreadPods('ScheduleAnyway'), 'Respect')).newNodeClaims).toHaveLength(4);
    expect(solve(benchmarkInput(spreadPods('DoNotSchedule'), 'Ignore')).newNodeClaims).toHaveLength(4);
  });
});
