import { describe, expect, it } from 'vitest';
import { ConsolidatedStateMaxAgeMs, DisruptionPasses } from '../../src/controllers/disruption/pass-cache.js';
import type {
  RemovalHints,
  RemovalOutcome,
  RemovalSimulator,
} from '../../src/controllers/disruption/simulation/removal-simulator.js';
import { SolveRemovalSimulator } from '../../src/controllers/disruption/simulation/solve-simulator.js';
import { catalog, node, pod, pool, view } from '../../src/controllers/disruption/testing/cluster.js';
import type { Candidate, DisruptionNode, DisruptionView } from '../../src/controllers/disruption/types.js';

const types = catalog();
const start = 3_600_000;

/** The real solver-backed simulator, counting the simulations it is asked for. */
class Counted implements RemovalSimulator {
  private readonly inner: SolveRemovalSimulator;
  constructor(
    v: DisruptionView,
    private readonly count: { n: number },
  ) {
    this.inner = new SolveRemovalSimulator(v);
  }
  simulate(candidates: readonly Candidate[], hints?: RemovalHints): RemovalOutcome {
    this.count.n++;
    return this.inner.simulate(candidates, hints);
  }
}

function setup(): { passes: DisruptionPasses; count: { n: number } } {
  const count = { n: 0 };
  return { passes: new DisruptionPasses({ simulatorFor: (v) => new Counted(v, count) }), count };
}

/** Two nodes exactly filled: nothing can be consolidated. */
const fullNodes = (): DisruptionNode[] =>
  ['a', 'b'].map((n) => node({ name: n, type: 'c.2x', pods: [pod({ cpu: 2 })] }, types));

describe('skipping unchanged passes', () => {
  it('does not simulate again when nothing changed since a pass that found nothing', () => {
    const { passes, count } = setup();
    const nodes = fullNodes();
    expect(passes.run(view({ types, nodes, now: start }))?.command).toBeUndefined();
    const simulated = count.n;
    expect(simulated).toBeGreaterThan(0);
    expect(passes.run(view({ types, nodes, now: start + 10_000 }))).toBeUndefined();
    expect(passes.run(view({ types, nodes, now: start + 20_000 }))).toBeUndefined();
    expect(count.n).toBe(simulated);
  });

  it('simulates again once a pod changes, and finds the consolidation it allows', () => {
    const { passes, count } = setup();
    const nodes = fullNodes();
    passes.run(view({ types, nodes, now: start }));
    const before = count.n;
    const [a, b] = nodes;
    if (!a || !b) throw new Error('two nodes expected');
    // The pod on b was replaced by a smaller one: b now fits a c.1x.
    const smaller = node({ name: 'b', type: 'c.2x', pods: [pod({ cpu: 1 })] }, types);
    const d = passes.run(view({ types, nodes: [a, smaller], now: start + 10_000 }));
    expect(d?.command?.candidates.map((c) => c.node.name)).toEqual(['b']);
    expect(d?.command?.replacements[0]?.cheapest.instanceType).toBe('c.1x');
    expect(count.n).toBeGreaterThan(before);
  });

  it('runs again when only the clock makes a node eligible (consolidateAfter elapses)', () => {
    const { passes } = setup();
    const nodes = [
      node({ name: 'idle', type: 'c.8x', pods: [pod({ cpu: 1 })], extra: { lastPodEventTime: start } }, types),
    ];
    const pools = [pool({ consolidateAfterMs: 60_000 })];
    expect(passes.run(view({ types, nodes, pools, now: start + 10_000 }))?.command).toBeUndefined();
    expect(passes.run(view({ types, nodes, pools, now: start + 20_000 }))).toBeUndefined();
    expect(passes.run(view({ types, nodes, pools, now: start + 70_000 }))?.command?.consolidationType).toBe('single');
  });

  it('runs again when a budget window opens', () => {
    const { passes } = setup();
    const nodes = [node({ name: 'empty', type: 'c.2x' }, types)];
    // Closed for the first 10 minutes of every hour (start is on the hour).
    const pools = [pool({ budgets: [{ nodes: '0', schedule: '0 * * * *', duration: '10m' }, { nodes: '100%' }] })];
    expect(passes.run(view({ types, nodes, pools, now: start + 60_000 }))?.command).toBeUndefined();
    expect(passes.run(view({ types, nodes, pools, now: start + 120_000 }))).toBeUndefined();
    expect(passes.run(view({ types, nodes, pools, now: start + 11 * 60_000 }))?.command?.consolidationType).toBe(
      'empty',
    );
  });

  it('re-checks an unchanged cluster after five minutes, as Karpenter does', () => {
    const { passes, count } = setup();
    const nodes = fullNodes();
    passes.run(view({ types, nodes, now: start }));
    const simulated = count.n;
    expect(passes.run(view({ types, nodes, now: start + ConsolidatedStateMaxAgeMs }))?.command).toBeUndefined();
    expect(count.n).toBeGreaterThan(simulated);
  });

  it('never skips the pass after one that found a command', () => {
    const { passes } = setup();
    const nodes = [node({ name: 'empty', type: 'c.2x' }, types)];
    expect(passes.run(view({ types, nodes, now: start }))?.command).toBeDefined();
    expect(passes.run(view({ types, nodes, now: start + 10_000 }))?.command).toBeDefined();
  });
});
