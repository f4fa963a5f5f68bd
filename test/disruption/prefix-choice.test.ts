/**
 * Multi-node consolidation's choice of prefix (ADR 0011): a well-fitting merge is preferred to locking the fleet
 * into one large node that suits its pods poorly, and the fair price it is judged against is a true lower bound.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/controllers/disruption/decide.js';
import { FairPrice, type PricedCapacity } from '../../src/controllers/disruption/methods/fair-price.js';
import { MaxExtraSolves } from '../../src/controllers/disruption/methods/prefix-choice.js';
import { SolveRemovalSimulator } from '../../src/controllers/disruption/simulation/solve-simulator.js';
import { applyCommand, fleetCost } from '../../src/controllers/disruption/testing/apply.js';
import { catalog, instanceType, node, pod, view } from '../../src/controllers/disruption/testing/cluster.js';
import type { DisruptionView } from '../../src/controllers/disruption/types.js';
import { ConsolidationTtlMs, validate } from '../../src/controllers/disruption/validation.js';
import type * as sched from '../../src/scheduling/index.js';

/** A pod of `cpu` cores and `memGi` GiB. */
function sized(cpu: number, memGi: number): sched.Pod {
  const p = pod({ cpu });
  const c = p.spec.containers[0];
  if (c?.resources?.requests) c.resources.requests['memory'] = `${memGi}Gi`;
  return p;
}

// c.* hold 4 GiB per core at $0.05/core (up to c.64x); hc.* are compute-optimised, 1 GiB per core at $0.035/core;
// old.8x is a dear older type (8 cores, 32 GiB, $0.10/core) the fleet runs on today.
const types = [
  ...catalog(),
  instanceType({ name: 'c.64x', cpu: 64, price: 64 * 0.05 }),
  instanceType({ name: 'hc.16x', cpu: 16, memGi: 16, price: 16 * 0.035 }),
  instanceType({ name: 'hc.32x', cpu: 32, memGi: 32, price: 32 * 0.035 }),
  instanceType({ name: 'old.8x', cpu: 8, memGi: 32, price: 0.8 }),
];

/** Four nodes of CPU-heavy pods (7.5 cores, 7.5 GiB) and two of memory-heavy ones (7.5 cores, 30 GiB), interleaved. */
function mixedFleet(): DisruptionView {
  const cpuHeavy = (name: string) => node({ name, type: 'old.8x', pods: [sized(7.5, 7.5)] }, types);
  const memHeavy = (name: string) => node({ name, type: 'old.8x', pods: [sized(7.5, 30)] }, types);
  return view({
    types,
    nodes: [cpuHeavy('a'), memHeavy('b'), cpuHeavy('c'), memHeavy('d'), cpuHeavy('e'), cpuHeavy('f')],
  });
}

describe('multi-node consolidation: choosing the prefix', () => {
  it('merges the CPU-heavy nodes onto a compute-optimised node instead of everything onto one large general-purpose node', () => {
    // Karpenter's longest prefix takes all six onto a c.64x: cheaper than today, but 1.7x what its pods are worth.
    const cmd = decide(mixedFleet()).command;
    expect(cmd?.consolidationType).toBe('multi');
    expect(cmd?.candidates.map((c) => c.node.name).sort()).toEqual(['a', 'c', 'e', 'f']);
    expect(cmd?.replacements.map((r) => r.cheapest.instanceType)).toEqual(['hc.32x']);
    // The event says what was passed over, and why.
    expect(cmd?.summary).toMatch(
      /^multi-node consolidation: delete 4 nodes \(.*\) and replace with hc\.32x, saving \$2\.0800\/h \(instead of delete 6 nodes \(.*\) and replace with c\.64x, saving \$1\.6000\/h, at 1\.78x the fair price of what it would hold\)$/,
    );
  });

  it('still says why after the re-validation that precedes carrying it out', () => {
    const v = mixedFleet();
    const cmd = decide(v).command;
    if (!cmd) throw new Error('expected a command');
    const r = validate(cmd, { ...v, now: v.now + ConsolidationTtlMs });
    expect(r.ok && r.command.summary).toMatch(
      /and replace with hc\.32x, .*\(instead of delete 6 nodes .* c\.64x, .* at 1\.78x the fair price of what it would hold\)$/,
    );
  });

  it("spends at most 16 full solves looking past Karpenter's command when every simulation needs the solver", () => {
    const nodes = Array.from({ length: 40 }, (_, i) =>
      node(
        {
          name: `n${String(i).padStart(2, '0')}`,
          type: 'old.8x',
          pods: [i % 3 === 0 ? sized(7.5, 30) : sized(7.5, 7.5)],
        },
        types,
      ),
    );
    const v = view({ types, nodes });
    const solver = new SolveRemovalSimulator(v);
    const cmd = decide(v, { simulator: solver }).command;
    expect(cmd?.consolidationType).toBe('multi');
    // Karpenter's binary search over 40 candidates takes at most 6 simulations.
    expect(solver.solves).toBeLessThanOrEqual(6 + MaxExtraSolves);
  });

  it('converges on well-fitting nodes of both kinds, for far less than the one large node', () => {
    let v = mixedFleet();
    for (let pass = 0; pass < 5; pass++) {
      const cmd = decide(v).command;
      if (!cmd) break;
      const applied = applyCommand(v, cmd);
      expect(applied.ok).toBe(true);
      if (applied.ok) v = applied.view;
    }
    expect(v.nodes.map((n) => n.labels['node.kubernetes.io/instance-type']).sort()).toEqual(['c.16x', 'hc.32x']);
    expect(fleetCost(v)).toBeCloseTo(1.92, 6); // against 3.20 for the c.64x
  });

  it("keeps Karpenter's longest prefix when its replacement fits well", () => {
    // Three 5-core pods fill a c.16x; nothing else is on offer that fits them better.
    const v = view({
      types: catalog(),
      nodes: ['a', 'b', 'c', 'd'].map((n) => node({ name: n, type: 'c.8x', pods: [pod({ cpu: 5 })] }, catalog())),
    });
    const cmd = decide(v).command;
    expect(cmd?.candidates).toHaveLength(3);
    expect(cmd?.summary).not.toMatch(/instead of/);
  });
});

describe('fair price', () => {
  const typeArb = fc.record({
    cpu: fc.integer({ min: 1, max: 96 }),
    memPerCpu: fc.constantFrom(1, 2, 4, 8),
    perCpu: fc.double({ min: 0.01, max: 0.1, noNaN: true }),
  });
  const caps = (ts: { cpu: number; memPerCpu: number; perCpu: number }[]): PricedCapacity[] =>
    ts.map((t) => ({
      price: t.cpu * t.perCpu * (1 + t.memPerCpu / 16),
      allocatable: { cpu: t.cpu * 1000, memory: t.cpu * t.memPerCpu * 2 ** 30 },
    }));

  it('never exceeds what any fleet of whole nodes that holds the requests costs, nor any single type used fractionally', () => {
    fc.assert(
      fc.property(
        fc.array(typeArb, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat({ max: 3 }), { minLength: 8, maxLength: 8 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 800 }),
        (ts, counts, cpu, memGi) => {
          const capacities = caps(ts);
          const requests = { cpu: cpu * 1000, memory: memGi * 2 ** 30 };
          const fair = new FairPrice(capacities).of(requests);
          for (const t of capacities) {
            const share = Math.max(
              requests.cpu / (t.allocatable['cpu'] ?? 1),
              requests.memory / (t.allocatable['memory'] ?? 1),
            );
            expect(fair).toBeLessThanOrEqual(t.price * share * (1 + 1e-9));
          }
          // A fleet of whole nodes: counts[i] of type i.
          let cost = 0;
          let haveCpu = 0;
          let haveMem = 0;
          capacities.forEach((t, i) => {
            const n = counts[i] ?? 0;
            cost += n * t.price;
            haveCpu += n * (t.allocatable['cpu'] ?? 0);
            haveMem += n * (t.allocatable['memory'] ?? 0);
          });
          if (haveCpu >= requests.cpu && haveMem >= requests.memory)
            expect(fair).toBeLessThanOrEqual(cost * (1 + 1e-9));
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });

  it('is reached by a mix of two types when the requests fall between their shapes', () => {
    const fair = new FairPrice([
      { price: 1, allocatable: { cpu: 10_000, memory: 10 * 2 ** 30 } },
      { price: 2, allocatable: { cpu: 10_000, memory: 40 * 2 ** 30 } },
    ]);
    // 10 cores and 25 GiB: half of each type exactly.
    expect(fair.of({ cpu: 10_000, memory: 25 * 2 ** 30 })).toBeCloseTo(1.5, 9);
    expect(fair.of({ cpu: 0, memory: 0 })).toBe(0);
    expect(fair.of({ cpu: 1000, 'nvidia.com/gpu': 1 })).toBe(Number.POSITIVE_INFINITY);
  });
});
