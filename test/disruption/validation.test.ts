import { describe, expect, it } from 'vitest';
import { decide } from '../../src/controllers/disruption/decide.js';
import { catalog, node, pod, pool, view } from '../../src/controllers/disruption/testing/cluster.js';
import type { Command, DisruptionView } from '../../src/controllers/disruption/types.js';
import { validate } from '../../src/controllers/disruption/validation.js';

const types = catalog();

function decided(v: DisruptionView): Command {
  const cmd = decide(v).command;
  if (!cmd) throw new Error('expected a command');
  return cmd;
}

const emptyCluster = (): DisruptionView =>
  view({
    types,
    nodes: [
      node({ name: 'e', type: 'c.4x' }, types),
      node({ name: 'f', type: 'c.2x', pods: [pod({ cpu: 2 })] }, types),
    ],
  });
const oversized = (): DisruptionView =>
  view({ types, nodes: [node({ name: 'big', type: 'c.16x', pods: [pod({ cpu: 3, name: 'w' })] }, types)] });

describe('re-validation after the consolidation TTL', () => {
  it('keeps a decision the cluster still supports, refreshed from the new view', () => {
    const v = oversized();
    const cmd = decided(v);
    const later = { ...v, now: v.now + 15_000 };
    const r = validate(cmd, later);
    expect(r.ok && r.command.replacements[0]?.cheapest.instanceType).toBe('c.4x');
  });

  it.each<[string, (v: DisruptionView) => DisruptionView, () => DisruptionView, RegExp]>([
    [
      'a pod landed on the empty node',
      (v) => ({ ...v, nodes: v.nodes.map((n) => (n.name === 'e' ? { ...n, pods: [pod({ cpu: 1 })] } : n)) }),
      emptyCluster,
      /no longer a emptiness candidate/,
    ],
    [
      'the node got do-not-disrupt',
      (v) => ({ ...v, nodes: v.nodes.map((n) => ({ ...n, doNotDisrupt: true })) }),
      oversized,
      /no longer a single-node consolidation candidate/,
    ],
    [
      'the budget dropped to zero',
      (v) => ({ ...v, nodePools: [pool({ budgets: [{ nodes: '0' }] })] }),
      oversized,
      /budget/,
    ],
    [
      'the pods grew past what is cheaper',
      (v) => ({ ...v, nodes: v.nodes.map((n) => ({ ...n, pods: [pod({ cpu: 15 })] })) }),
      oversized,
      /cheaper|changed/,
    ],
  ])('drops it when %s', (_what, change, build, why) => {
    const v = build();
    const cmd = decided(v);
    const r = validate(cmd, change(v));
    expect(r.ok ? 'kept' : r.why).toMatch(why);
  });
});
