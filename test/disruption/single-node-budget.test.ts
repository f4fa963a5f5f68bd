/**
 * Single-node consolidation spends at most SingleNodeConsolidationMaxSolves full solves per pass (Karpenter's
 * 3-minute timeout, counted in solves so a scenario decides alike on every machine). A pass cut short is not
 * remembered as having found nothing: the next pass looks again.
 */
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/controllers/disruption/decide.js';
import { SingleNodeConsolidationMaxSolves } from '../../src/controllers/disruption/methods/single-node-consolidation.js';
import { DisruptionPasses } from '../../src/controllers/disruption/pass-cache.js';
import { SolveRemovalSimulator } from '../../src/controllers/disruption/simulation/solve-simulator.js';
import { catalog, node, pod, view } from '../../src/controllers/disruption/testing/cluster.js';
import type { DisruptionView } from '../../src/controllers/disruption/types.js';

const types = catalog();

/**
 * `pinned` nodes whose 3-core pod may run on that node only (each removal needs a full solve to be refused), and
 * last in the order ("zz" sorts after them) one node whose half-core pod fits in the room the others leave.
 */
function fleet(pinned: number): DisruptionView {
  const nodes = Array.from({ length: pinned }, (_, i) => {
    const name = `n-${String(i).padStart(3, '0')}`;
    const p = pod({ cpu: 3, name: `pinned-${i}` });
    p.spec.nodeSelector = { 'kubernetes.io/hostname': name };
    return node({ name, type: 'c.4x', pods: [p] }, types);
  });
  nodes.push(node({ name: 'zz', type: 'c.4x', pods: [pod({ cpu: 0.5, name: 'movable' })] }, types));
  return view({ types, nodes });
}

describe('single-node consolidation: the per-pass simulation budget', () => {
  it('finds the one removable node when the candidates before it fit in the budget', () => {
    const v = fleet(SingleNodeConsolidationMaxSolves - 50);
    const d = decide(v, { simulator: new SolveRemovalSimulator(v) });
    expect(d.command?.method).toBe('single-node consolidation');
    expect(d.command?.candidates.map((c) => c.node.name)).toEqual(['zz']);
    expect(d.incomplete).toBeUndefined();
  });

  it('stops after the budget, says how far it got, and reports only the candidates it evaluated', () => {
    const v = fleet(SingleNodeConsolidationMaxSolves + 60);
    const sim = new SolveRemovalSimulator(v);
    const d = decide(v, { simulator: sim });
    expect(d.command).toBeUndefined();
    const m =
      /^abandoning single-node consolidation after (\d+) simulations, having evaluated (\d+) of (\d+) candidates$/.exec(
        d.incomplete?.message ?? '',
      );
    expect(m).not.toBeNull();
    const [, budget, evaluated, total] = m?.map(Number) ?? [];
    expect(budget).toBe(SingleNodeConsolidationMaxSolves);
    expect(total).toBe(SingleNodeConsolidationMaxSolves + 61);
    expect(evaluated).toBeLessThanOrEqual(SingleNodeConsolidationMaxSolves);
    const unconsolidatable = d.blocked.filter((b) => b.reason === 'Unconsolidatable' && b.node.name.startsWith('n-'));
    expect(unconsolidatable).toHaveLength(evaluated ?? -1);
    expect(d.blocked.some((b) => b.node.name === 'zz')).toBe(false);
  });

  it('runs the next pass over the same cluster instead of skipping it as consolidated', () => {
    const v = fleet(SingleNodeConsolidationMaxSolves + 60);
    const passes = new DisruptionPasses({ simulatorFor: (x) => new SolveRemovalSimulator(x) });
    expect(passes.run(v)?.incomplete).toBeDefined();
    expect(passes.run({ ...v, now: v.now + 10_000 })).toBeDefined();
    // A pass that looked at everything and found nothing is remembered as before.
    const small = fleet(3);
    small.nodes.pop();
    expect(passes.run(small)?.command).toBeUndefined();
    expect(passes.run({ ...small, now: small.now + 10_000 })).toBeUndefined();
  });
});
