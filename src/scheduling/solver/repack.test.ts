// The improvement pass: movable pods re-packed into the cheapest cover, never at a higher price, never breaking a constraint.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPlacement } from '../check/check.js';
import type { Pod, SchedulingInput } from '../model.js';
import { makeInstanceType, makeNodePool, makePod } from '../testing/factories.js';
import { countBy, sortedCounts } from '../testing/placement.js';
import { pack, solve } from './solve.js';

const zones = ['z1', 'z2', 'z3'];
// Larger types are cheaper per core, but not by enough to buy one for a few pods.
const sizes = [
  { cpu: 3, price: 0.3 },
  { cpu: 5, price: 0.45 },
  { cpu: 8, price: 0.7 },
  { cpu: 13, price: 1.1 },
];
const catalog = sizes.map((s) => makeInstanceType({ name: `t${s.cpu}`, cpu: s.cpu, memGi: 64, price: s.price, zones }));

/** The cheapest set of nodes holding n one-core pods, by enumeration. */
function optimum(n: number): number {
  let best = Number.POSITIVE_INFINITY;
  const go = (i: number, cores: number, price: number): void => {
    if (price >= best) return;
    if (cores >= n) {
      best = price;
      return;
    }
    const s = sizes[i];
    if (!s) return;
    for (let k = 0; cores + (k - 1) * s.cpu < n; k++) go(i + 1, cores + k * s.cpu, price + k * s.price);
  };
  go(0, 0, 0);
  return best;
}

const onePodCores = (n: number, extra: Partial<Pod['spec']> & { labels?: Record<string, string> } = {}): Pod[] =>
  Array.from({ length: n }, (_, i) => makePod({ name: `p${i}`, cpu: '1', memory: '1Gi', ...extra }));

describe('repack', () => {
  it('covers identical pods at the cheapest possible price', () => {
    for (let n = 1; n <= 30; n++) {
      const input: SchedulingInput = { pods: onePodCores(n), nodePools: [makeNodePool()], instanceTypes: catalog };
      const r = solve(input);
      expect(r.unplaced).toEqual([]);
      expect(r.cost, `${n} pods`).toBeCloseTo(optimum(n), 9);
      expect(checkPlacement(input, r)).toEqual([]);
    }
  });

  it('re-packs zone-spread pods within their zones: the spread and the per-zone optimum both hold', () => {
    const spread = {
      labels: { app: 'web' },
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'DoNotSchedule' as const,
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
    };
    const pods = onePodCores(33, spread);
    const input: SchedulingInput = { pods, nodePools: [makeNodePool()], instanceTypes: catalog };
    const r = solve(input);
    expect(checkPlacement(input, r)).toEqual([]);
    expect(
      sortedCounts(
        countBy(
          r,
          pods.map((p) => `default/${p.metadata.name}`),
          'topology.kubernetes.io/zone',
        ),
      ),
    ).toEqual([11, 11, 11]);
    expect(r.cost).toBeCloseTo(3 * optimum(11), 9);
  });

  it('never raises the price of the greedy packing and keeps every constraint', () => {
    const podArb = fc.record({
      cpu: fc.constantFrom('500m', '1', '2', '3'),
      zone: fc.option(fc.constantFrom(...zones), { nil: undefined }),
      anti: fc.boolean(),
      spread: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(podArb, { minLength: 1, maxLength: 30 }), (specs) => {
        const pods = specs.map((s, i) =>
          makePod({
            name: `q${i}`,
            cpu: s.cpu,
            labels: { app: s.anti ? 'anti' : 'web' },
            ...(s.zone ? { nodeSelector: { 'topology.kubernetes.io/zone': s.zone } } : {}),
            ...(s.anti
              ? {
                  affinity: {
                    podAntiAffinity: {
                      requiredDuringSchedulingIgnoredDuringExecution: [
                        { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'anti' } } },
                      ],
                    },
                  },
                }
              : {}),
            ...(s.spread
              ? {
                  topologySpreadConstraints: [
                    {
                      maxSkew: 1,
                      topologyKey: 'topology.kubernetes.io/zone',
                      whenUnsatisfiable: 'DoNotSchedule' as const,
                      labelSelector: { matchLabels: { app: 'web' } },
                    },
                  ],
                }
              : {}),
          }),
        );
        const input: SchedulingInput = { pods, nodePools: [makeNodePool()], instanceTypes: catalog };
        const greedy = pack(input, { strategy: 'tenon', targets: true, repack: false });
        const improved = pack(input, { strategy: 'tenon', targets: true });
        expect(improved.unplaced.length).toBe(greedy.unplaced.length);
        expect(improved.cost).toBeLessThanOrEqual(greedy.cost + 1e-9);
        expect(checkPlacement(input, improved)).toEqual([]);
      }),
      { numRuns: 60, seed: 5 },
    );
  });
});
