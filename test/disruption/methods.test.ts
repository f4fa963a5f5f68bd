import { describe, expect, it } from 'vitest';
import { Labels } from '../../src/api/index.js';
import { decide } from '../../src/controllers/disruption/decide.js';
import { catalog, instanceType, node, pod, pool, view } from '../../src/controllers/disruption/testing/cluster.js';
import type { DisruptionView } from '../../src/controllers/disruption/types.js';

const types = catalog();
const names = (v: DisruptionView): string[] => (decide(v).command?.candidates ?? []).map((c) => c.node.name).sort();
const blockedOf = (v: DisruptionView, n: string): string | undefined =>
  decide(v).blocked.find((b) => b.node.name === n)?.message;
const reasonOf = (v: DisruptionView, n: string): string | undefined =>
  decide(v).blocked.find((b) => b.node.name === n)?.reason;
/** A node exactly filled by one pod: it can take nothing else and is never worth replacing. */
const full = (name: string, cpu = 2) => node({ name, type: `c.${cpu}x`, pods: [pod({ cpu })] }, types);

describe('method order and emptiness', () => {
  it('drift goes before emptiness', () => {
    const v = view({
      types,
      nodes: [
        node({ name: 'empty', type: 'c.2x' }, types),
        node({ name: 'drifted', type: 'c.2x', pods: [pod({ cpu: 1 })], extra: { drifted: 'NodePoolDrifted' } }, types),
        full('f', 4),
      ],
    });
    const d = decide(v);
    expect(d.command?.reason).toBe('Drifted');
    expect(d.command?.candidates.map((c) => c.node.name)).toEqual(['drifted']);
  });

  it('deletes every empty node the budget allows in one command and reports the rest', () => {
    const v = view({
      types,
      pools: [pool({ budgets: [{ nodes: '2' }] })],
      nodes: [
        node({ name: 'e1', type: 'c.2x' }, types),
        node({ name: 'e2', type: 'c.2x' }, types),
        node({ name: 'e3', type: 'c.2x' }, types),
        full('f'),
      ],
    });
    const d = decide(v);
    expect(d.command?.consolidationType).toBe('empty');
    expect(d.command?.candidates).toHaveLength(2);
    expect(d.blocked.find((b) => b.node.name === 'e3')?.message).toMatch(
      /disruption budget of NodePool default for reason Empty/,
    );
  });

  it('waits for consolidateAfter since the last pod event', () => {
    const now = 100_000;
    const nodes = [node({ name: 'e', type: 'c.2x', extra: { lastPodEventTime: now - 10_000 } }, types)];
    expect(decide(view({ types, now, nodes, pools: [pool({ consolidateAfterMs: 30_000 })] })).command).toBeUndefined();
    expect(
      decide(view({ types, now, nodes, pools: [pool({ consolidateAfterMs: 5_000 })] })).command?.consolidationType,
    ).toBe('empty');
    expect(
      decide(view({ types, now, nodes, pools: [pool({ consolidateAfterMs: undefined })] })).command,
    ).toBeUndefined();
  });

  it('WhenEmpty deletes empty nodes but never consolidates underused ones', () => {
    const under = [
      node({ name: 'a', type: 'c.8x', pods: [pod({ cpu: 1 })] }, types),
      node({ name: 'b', type: 'c.8x', pods: [pod({ cpu: 1 })] }, types),
    ];
    expect(decide(view({ types, nodes: under, pools: [pool({ policy: 'WhenEmpty' })] })).command).toBeUndefined();
    expect(
      names(
        view({
          types,
          nodes: [...under, node({ name: 'e', type: 'c.2x' }, types)],
          pools: [pool({ policy: 'WhenEmpty' })],
        }),
      ),
    ).toEqual(['e']);
  });
});

describe('consolidation', () => {
  it('waits while the pending pods need more than one new NodeClaim, saying so, and not when they fit', () => {
    const nodes = (): ReturnType<typeof node>[] =>
      ['a', 'b'].map((n) => node({ name: n, type: 'c.8x', pods: [pod({ cpu: 1 })] }, types));
    // Two 20-core pods cannot share the largest type (32 cores): they need two new NodeClaims whatever is removed.
    const busy = view({ types, nodes: nodes(), pending: [pod({ cpu: 20 }), pod({ cpu: 20 })] });
    expect(decide(busy).command).toBeUndefined();
    expect(blockedOf(busy, 'a')).toBe('pending pods need 2 new NodeClaims; consolidation waits until they have them');
    expect(decide(view({ types, nodes: nodes() })).command?.candidates.length).toBeGreaterThan(0);
    // A pending pod the remaining node has room for does not hold consolidation back.
    expect(
      decide(view({ types, nodes: nodes(), pending: [pod({ cpu: 1 })] })).command?.candidates.length,
    ).toBeGreaterThan(0);
  });

  it('waits while pending pods would schedule against a node that is not initialized yet, and not once it is', () => {
    // The 7.5-core pod fits only the empty node (kept out of emptiness); a and b each have room for the other's pod.
    const nodes = (initialized: boolean): ReturnType<typeof node>[] => [
      ...['a', 'b'].map((n) => node({ name: n, type: 'c.8x', pods: [pod({ cpu: 1 })] }, types)),
      node({ name: 'fresh', type: 'c.8x', extra: { initialized, doNotDisrupt: true } }, types),
    ];
    const rising = view({ types, nodes: nodes(false), pending: [pod({ cpu: 7.5 })] });
    expect(decide(rising).command).toBeUndefined();
    expect(blockedOf(rising, 'a')).toBe(
      'pending pods would schedule against 1 uninitialized node(s) or NodeClaim(s); consolidation waits until they are initialized',
    );
    const settled = decide(view({ types, nodes: nodes(true), pending: [pod({ cpu: 7.5 })] })).command;
    expect(settled?.candidates.map((c) => c.node.name)).toContain('a');
  });

  it('multi-node: several underused nodes become one cheaper node', () => {
    // Three 5-core pods fill a c.16x for less than three c.8x; all four would need a c.32x, which costs the same.
    const v = view({
      types,
      nodes: ['a', 'b', 'c', 'd'].map((n) => node({ name: n, type: 'c.8x', pods: [pod({ cpu: 5 })] }, types)),
    });
    const cmd = decide(v).command;
    expect(cmd?.consolidationType).toBe('multi');
    expect(cmd?.candidates).toHaveLength(3);
    expect(cmd?.replacements).toHaveLength(1);
    expect(cmd?.costAfter).toBeLessThan(cmd?.costBefore ?? 0);
    expect(cmd?.replacements[0]?.cheapest.instanceType).toBe('c.16x');
  });

  it('multi-node: never replaces nodes with one of their own type at no lower price (filterOutSameType)', () => {
    // One c.8x could hold all three pods, but deleting two nodes onto the third does the same with fewer moves.
    const v = view({
      types,
      nodes: ['a', 'b', 'c'].map((n) => node({ name: n, type: 'c.8x', pods: [pod({ cpu: 2 })] }, types)),
    });
    const cmd = decide(v).command;
    expect(cmd?.consolidationType).toBe('multi');
    expect(cmd?.candidates).toHaveLength(2);
    expect(cmd?.replacements).toEqual([]);
  });

  it('multi-node: pods moving onto free room elsewhere mean a plain delete', () => {
    const v = view({
      types,
      nodes: [
        node({ name: 'big', type: 'c.16x', pods: [pod({ cpu: 14 })], extra: { doNotDisrupt: true } }, types),
        node({ name: 'a', type: 'c.4x', pods: [pod({ cpu: 1 })] }, types),
        node({ name: 'b', type: 'c.4x', pods: [pod({ cpu: 1 })] }, types),
      ],
    });
    const cmd = decide(v).command;
    expect(cmd?.candidates.map((c) => c.node.name).sort()).toEqual(['a', 'b']);
    expect(cmd?.replacements).toEqual([]);
  });

  it('multi-node: prefers a shorter prefix to locking in a replacement that is poor value for what it holds', () => {
    // The longest prefix (all six) needs the pricier-per-core big.64x; four nodes fit a well-filled c.32x.
    const ts = [...types, instanceType({ name: 'big.64x', cpu: 64, price: 64 * 0.07 })];
    const nodes = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) =>
      node({ name: n, type: 'c.16x', pods: [pod({ cpu: 5 }), pod({ cpu: 5 })] }, ts),
    );
    const cmd = decide(view({ types: ts, nodes })).command;
    expect(cmd?.consolidationType).toBe('multi');
    expect(cmd?.candidates).toHaveLength(4);
    expect(cmd?.replacements[0]?.cheapest.instanceType).toBe('c.32x');
  });

  it('multi-node: still takes the poor-value replacement when no shorter prefix does better', () => {
    // Forty cores on a 64-core node is a poor fit, but nothing else holds them.
    const ts = [...types, instanceType({ name: 'big.64x', cpu: 64, price: 64 * 0.045 })];
    const nodes = ['a', 'b'].map((n) => node({ name: n, type: 'c.32x', pods: [pod({ cpu: 20 })] }, ts));
    const cmd = decide(view({ types: ts, nodes })).command;
    expect(cmd?.candidates).toHaveLength(2);
    expect(cmd?.replacements[0]?.cheapest.instanceType).toBe('big.64x');
  });

  it('single-node: an oversized node is replaced by a strictly cheaper one', () => {
    const v = view({ types, nodes: [node({ name: 'big', type: 'c.16x', pods: [pod({ cpu: 3 })] }, types)] });
    const cmd = decide(v).command;
    expect(cmd?.consolidationType).toBe('single');
    expect(cmd?.replacements[0]?.instanceTypeOptions).toEqual(['c.4x', 'c.8x']);
    expect(cmd?.replacements[0]?.requirements.find((r) => r.key === Labels.instanceType)?.values).toEqual([
      'c.4x',
      'c.8x',
    ]);
  });

  it("not cheaper: leaves the node with Karpenter's Unconsolidatable message", () => {
    const v = view({ types, nodes: [full('a'), full('b')] });
    expect(decide(v).command).toBeUndefined();
    expect(blockedOf(v, 'a')).toBe("Can't replace with a cheaper node");
    expect(reasonOf(v, 'a')).toBe('Unconsolidatable');
  });

  it('a NodePool that rules consolidation out says so on each of its nodes', () => {
    const nodes = [node({ name: 'a', type: 'c.8x', pods: [pod({ cpu: 1 })] }, types)];
    const whenEmpty = view({ types, nodes, pools: [pool({ policy: 'WhenEmpty' })] });
    expect(blockedOf(whenEmpty, 'a')).toBe('NodePool "default" has non-empty consolidation disabled');
    expect(reasonOf(whenEmpty, 'a')).toBe('Unconsolidatable');
    const never = view({
      types,
      nodes: [...nodes, node({ name: 'e', type: 'c.2x' }, types)],
      pools: [pool({ consolidateAfterMs: undefined })],
    });
    expect(blockedOf(never, 'a')).toBe('NodePool "default" has consolidation disabled');
    expect(blockedOf(never, 'e')).toBe('NodePool "default" has consolidation disabled');
  });

  it('a node that is no candidate at all is DisruptionBlocked, not Unconsolidatable', () => {
    const v = view({
      types,
      nodes: [{ ...node({ name: 'a', type: 'c.8x', pods: [pod({ cpu: 1 })] }, types), doNotDisrupt: true }],
    });
    expect(reasonOf(v, 'a')).toBe('DisruptionBlocked');
  });

  it('would not fit: names the pod and the constraint', () => {
    const pinned = pod({ cpu: 1, name: 'pinned' });
    pinned.spec.nodeSelector = { special: 'yes' };
    const n = node({ name: 'n', type: 'c.8x', pods: [pinned] }, types);
    n.labels['special'] = 'yes';
    const v = view({ types, nodes: [n, { ...full('f'), doNotDisrupt: true }] });
    expect(decide(v).command).toBeUndefined();
    expect(blockedOf(v, 'n')).toMatch(/^not all pods would schedule, default\/pinned => /);
    expect(reasonOf(v, 'n')).toBe('Unconsolidatable');
  });

  it('a zero budget for Underutilized stops consolidation and says so', () => {
    const v = view({
      types,
      pools: [pool({ budgets: [{ nodes: '0', reasons: ['Underutilized'] }, { nodes: '100%' }] })],
      nodes: [node({ name: 'big', type: 'c.16x', pods: [pod({ cpu: 3 })] }, types)],
    });
    expect(decide(v).command).toBeUndefined();
    expect(blockedOf(v, 'big')).toMatch(/budget/);
  });

  it('an on-demand node is replaced by spot when the NodePool allows both', () => {
    const spotTypes = catalog(true);
    const v = view({
      types: spotTypes,
      nodes: [node({ name: 'big', type: 'c.16x', pods: [pod({ cpu: 3 })] }, spotTypes)],
    });
    const r = decide(v).command?.replacements[0];
    expect(r?.cheapest.capacityType).toBe('spot');
    expect(r?.requirements.find((x) => x.key === Labels.capacityType)?.values).toEqual(['spot']);
  });
});

describe('spot-to-spot', () => {
  const many = Array.from({ length: 20 }, (_, i) =>
    instanceType({ name: `s${String(i).padStart(2, '0')}`, cpu: 4, price: 1, spotPrice: 0.01 * (i + 1) }),
  );
  const pricey = instanceType({ name: 'pricey', cpu: 16, price: 2, spotPrice: 0.9 });
  const spotNode = (ts: typeof many) =>
    node({ name: 'spot', type: 'pricey', capacityType: 'spot', pods: [pod({ cpu: 3 })] }, ts);

  it('is refused without the feature gate', () => {
    const ts = [...many, pricey];
    const v = view({ types: ts, nodes: [spotNode(ts)] });
    expect(decide(v).command).toBeUndefined();
    expect(blockedOf(v, 'spot')).toMatch(/SpotToSpotConsolidation is disabled/);
  });

  it('needs 15 cheaper instance types for a single node', () => {
    const ts = [...many.slice(0, 14), pricey];
    const v = view({ types: ts, nodes: [spotNode(ts)], spotToSpot: true });
    expect(decide(v).command).toBeUndefined();
    expect(blockedOf(v, 'spot')).toMatch(
      /requires 15 cheaper instance type options than the current candidate to consolidate, got 14/,
    );
  });

  it('launches from the 15 cheapest when there are more', () => {
    const ts = [...many, pricey];
    const cmd = decide(view({ types: ts, nodes: [spotNode(ts)], spotToSpot: true })).command;
    expect(cmd?.replacements[0]?.instanceTypeOptions).toEqual(many.slice(0, 15).map((t) => t.name));
    expect(cmd?.replacements[0]?.cheapest.capacityType).toBe('spot');
  });
});

describe('drift', () => {
  it('replaces one drifted node at a time, replacement first, even when not cheaper', () => {
    const v = view({
      types,
      pools: [pool({ budgets: [{ nodes: '1' }] })],
      nodes: [
        node({ name: 'd1', type: 'c.2x', pods: [pod({ cpu: 2 })], extra: { drifted: 'AMIDrift' } }, types),
        node({ name: 'd2', type: 'c.2x', pods: [pod({ cpu: 2 })], extra: { drifted: 'AMIDrift' } }, types),
      ],
    });
    const d = decide(v);
    expect(d.command?.reason).toBe('Drifted');
    expect(d.command?.candidates).toHaveLength(1);
    expect(d.command?.replacements).toHaveLength(1);
    expect(d.blocked.map((b) => b.message).join()).toMatch(/budget/);
  });

  it('ignores consolidateAfter: Never', () => {
    const v = view({
      types,
      pools: [pool({ consolidateAfterMs: undefined })],
      nodes: [node({ name: 'd', type: 'c.2x', pods: [pod({ cpu: 2 })], extra: { drifted: 'NodePoolDrifted' } }, types)],
    });
    expect(decide(v).command?.reason).toBe('Drifted');
  });
});
