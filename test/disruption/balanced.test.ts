/** consolidationPolicy Balanced: a move is taken only when its saving justifies its disruption (score >= 1/2). */
import { describe, expect, it } from 'vitest';
import { scoreMove } from '../../src/controllers/disruption/methods/balanced.js';
import { decide } from '../../src/controllers/disruption/decide.js';
import { catalog, node, pod, pool, view } from '../../src/controllers/disruption/testing/cluster.js';
import type { Command, DisruptionView } from '../../src/controllers/disruption/types.js';
import type { ConsolidationPolicy } from '../../src/api/index.js';

const types = catalog();
const expensiveToMove = { 'controller.kubernetes.io/pod-deletion-cost': '2147483647' };

/**
 * Nine 32-core nodes exactly full (32 one-core pods each) and one 8-core node holding three one-core pods: the
 * small node can be replaced by a 4-core one, saving $0.20/h of $14.80/h (1.35%).
 */
function cluster(policy: ConsolidationPolicy, annotations?: Record<string, string>): DisruptionView {
  const fullNodes = Array.from({ length: 9 }, (_, i) =>
    node({ name: `full-${i}`, type: 'c.32x', pods: Array.from({ length: 32 }, () => pod({ cpu: 1 })) }, types),
  );
  const small = node(
    {
      name: 'small',
      type: 'c.8x',
      pods: Array.from({ length: 3 }, () => pod({ cpu: 1, ...(annotations ? { annotations } : {}) })),
    },
    types,
  );
  return view({ types, pools: [pool({ policy })], nodes: [...fullNodes, small] });
}

describe('Balanced consolidation', () => {
  it('replaces a node whose pods are cheap to move: 1.35% saved for 1.4% of the disruption (score 0.96)', () => {
    const d = decide(cluster('Balanced'));
    expect(d.command?.candidates.map((c) => c.node.name)).toEqual(['small']);
    expect(d.command?.replacements).toHaveLength(1);
    const s = d.command ? scoreMove(d.command, cluster('Balanced')) : undefined;
    expect(s?.score).toBeCloseTo(0.2 / 14.8 / (4 / 301), 6);
  });

  it('keeps it when its pods carry the highest deletion cost (disruption 31 of 328, score 0.14), and says why', () => {
    const d = decide(cluster('Balanced', expensiveToMove));
    expect(d.command).toBeUndefined();
    expect(d.blocked.find((b) => b.node.name === 'small')?.message).toMatch(
      /^Balanced consolidation: saving 1\.4% of the NodePool's cost does not justify disrupting 9\.5% of it \(score 0\.14 < 0\.5\)$/,
    );
  });

  it('WhenEmptyOrUnderutilized takes the same move whatever the pods cost to move', () => {
    expect(
      decide(cluster('WhenEmptyOrUnderutilized', expensiveToMove)).command?.candidates.map((c) => c.node.name),
    ).toEqual(['small']);
  });

  it('WhenEmpty leaves a node with pods alone', () => {
    expect(decide(cluster('WhenEmpty')).command).toBeUndefined();
  });
});

describe('Balanced score', () => {
  const v = view({
    types,
    pools: [pool({ policy: 'Balanced' })],
    nodes: [node({ name: 'only', type: 'c.4x', pods: [pod({ cpu: 1 }), pod({ cpu: 1 })] }, types)],
  });
  const command = (costAfter: number): Command => ({
    reason: 'Underutilized',
    consolidationType: 'single',
    method: 'test',
    candidates: [
      {
        node: v.nodes[0] as Command['candidates'][number]['node'],
        nodePool: pool({ policy: 'Balanced' }),
        reschedulable: v.nodes[0]?.pods ?? [],
        disruptionCost: 2,
      },
    ],
    replacements: [],
    costBefore: 0.2,
    costAfter,
    summary: '',
  });

  it('deleting the only node of a pool scores exactly 1 (all the cost, all the disruption)', () => {
    expect(scoreMove(command(0), v)).toMatchObject({
      savingsFraction: 1,
      disruptionFraction: 1,
      score: 1,
      approved: true,
    });
  });

  it('a move that saves nothing is refused whatever its disruption', () => {
    expect(scoreMove(command(0.2), v).approved).toBe(false);
  });

  it('the threshold is a score of one half', () => {
    expect(scoreMove(command(0.1), v)).toMatchObject({ score: 0.5, approved: true });
    expect(scoreMove(command(0.1001), v).approved).toBe(false);
  });
});
