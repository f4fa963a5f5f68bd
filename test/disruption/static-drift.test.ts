import { describe, expect, it } from 'vitest';
import { decide } from '../../src/controllers/disruption/decide.js';
import { staticAtLimitMessage } from '../../src/controllers/disruption/methods/static-drift.js';
import { catalog, node, pod, pool, view } from '../../src/controllers/disruption/testing/cluster.js';
import type { DisruptionNodePool, StaticPool } from '../../src/controllers/disruption/types.js';
import type { NewNodeClaim } from '../../src/scheduling/index.js';

const types = catalog();
const template: NewNodeClaim = {
  nodePool: 'fixed',
  requirements: [{ key: 'karpenter.sh/nodepool', operator: 'In', values: ['fixed'] }],
  instanceTypeOptions: [],
  cheapest: { instanceType: '', zone: '', capacityType: '', price: 0 },
  pods: [],
  requests: {},
  taints: [],
  labels: {},
};

/** A static pool of `replicas` (never consolidated, as build-view makes it) with `nodeClaims` NodeClaims. */
function staticPool(over: Partial<StaticPool> & { budget?: string } = {}): DisruptionNodePool {
  const { budget, ...rest } = over;
  return {
    ...pool({ name: 'fixed', consolidateAfterMs: undefined, budgets: [{ nodes: budget ?? '100%' }] }),
    static: { replicas: 3, nodeClaims: 3, active: 3, template, ...rest },
  };
}

const drifted = (name: string, pods = 0) =>
  node(
    {
      name,
      type: 'c.4x',
      pool: 'fixed',
      pods: Array.from({ length: pods }, () => pod({ cpu: 1 })),
      extra: { drifted: 'NodePoolDrifted' },
    },
    types,
  );
const healthy = (name: string) => node({ name, type: 'c.4x', pool: 'fixed' }, types);

describe('static drift (replacement first, within budgets and limits.nodes)', () => {
  it('replaces each drifted node of a static pool with one NodeClaim from its template, whatever its pods', () => {
    const d = decide(view({ types, pools: [staticPool()], nodes: [drifted('a', 3), healthy('b'), healthy('c')] }));
    expect(d.command?.method).toBe('static-drift');
    expect(d.command?.reason).toBe('Drifted');
    expect(d.command?.candidates.map((c) => c.node.name)).toEqual(['a']);
    expect(d.command?.replacements).toEqual([template]);
  });

  it('replaces as many drifted nodes at once as the Drifted budget allows, and reports the rest', () => {
    const nodes = [drifted('a'), drifted('b'), drifted('c')];
    const d = decide(view({ types, pools: [staticPool({ budget: '2' })], nodes }));
    expect(d.command?.candidates).toHaveLength(2);
    expect(d.command?.replacements).toHaveLength(2);
    expect(d.blocked.map((b) => b.message).join()).toMatch(/disruption budget of NodePool fixed for reason Drifted/);
  });

  it('does not delete first when limits.nodes leaves no room for a replacement: the nodes are blocked', () => {
    const nodes = [drifted('a'), healthy('b'), healthy('c')];
    const d = decide(view({ types, pools: [staticPool({ limitNodes: 3 })], nodes }));
    expect(d.command).toBeUndefined();
    expect(d.blocked.find((b) => b.node.name === 'a')?.message).toBe(staticAtLimitMessage);
  });

  it('stages only as many replacements as limits.nodes has room for', () => {
    const nodes = [drifted('a'), drifted('b'), drifted('c')];
    const d = decide(view({ types, pools: [staticPool({ limitNodes: 4 })], nodes }));
    expect(d.command?.candidates).toHaveLength(1);
  });

  it('waits while the pool is still scaling down (more NodeClaims than replicas)', () => {
    const nodes = [drifted('a'), healthy('b'), healthy('c')];
    expect(decide(view({ types, pools: [staticPool({ replicas: 2 })], nodes })).command).toBeUndefined();
  });

  it('never consolidates a static pool: an empty healthy node stays', () => {
    const d = decide(view({ types, pools: [staticPool()], nodes: [healthy('a'), healthy('b'), healthy('c')] }));
    expect(d.command).toBeUndefined();
  });

  it('leaves dynamic pools to the drift method, which deletes an empty drifted node without a replacement', () => {
    const d = decide(
      view({ types, nodes: [node({ name: 'x', type: 'c.2x', extra: { drifted: 'NodePoolDrifted' } }, types)] }),
    );
    expect(d.command?.method).toBe('drift');
    expect(d.command?.replacements).toEqual([]);
  });
});
