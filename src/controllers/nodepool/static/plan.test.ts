import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { planStatic, type StaticMember } from './plan.js';

const member = (name: string, over: Partial<StaticMember> = {}): StaticMember => ({
  name,
  deleting: false,
  pendingDisruption: false,
  resolved: true,
  pods: 0,
  doNotDisrupt: false,
  disruptionCost: 0,
  createdAt: 0,
  ...over,
});

describe('static NodePool plan', () => {
  test('creates the missing NodeClaims', () => {
    expect(planStatic({ replicas: 3, members: [member('a')] })).toEqual({ create: 2, remove: [] });
  });

  test('never passes limits.nodes, counting NodeClaims still being deleted', () => {
    const plan = planStatic({ replicas: 4, limitNodes: 3, members: [member('a'), member('b', { deleting: true })] });
    expect(plan.create).toBe(1);
    expect(plan.limitedBy).toContain('limits.nodes is 3');
  });

  test('scales down as Karpenter: not launched first, then empty, then cheapest to disrupt, do-not-disrupt last', () => {
    const members = [
      member('protected', { pods: 1, doNotDisrupt: true, disruptionCost: 1 }),
      member('busy', { pods: 5, disruptionCost: 5 }),
      member('light', { pods: 1, disruptionCost: 1 }),
      member('young-empty', { createdAt: 10 }),
      member('old-empty', { createdAt: 1 }),
      member('unlaunched', { resolved: false }),
    ];
    const order = (replicas: number): string[] => planStatic({ replicas, members }).remove;
    expect(order(5)).toEqual(['unlaunched']);
    expect(order(3)).toEqual(['unlaunched', 'young-empty', 'old-empty']);
    expect(order(1)).toEqual(['unlaunched', 'young-empty', 'old-empty', 'light', 'busy']);
  });

  test('a NodeClaim being replaced by a disruption command is not a surplus, and its replacement is not either', () => {
    const members = [
      member('a'),
      member('b', { pendingDisruption: true }),
      member('b-replacement', { resolved: false }),
    ];
    expect(planStatic({ replicas: 2, members })).toEqual({ create: 0, remove: [] });
  });

  test('for any pool, the NodeClaims kept plus created equal replicas unless the limit stops it, and never exceed the limit', () => {
    const arbMember = fc.record({
      deleting: fc.boolean(),
      resolved: fc.boolean(),
      pods: fc.nat(5),
      doNotDisrupt: fc.boolean(),
      disruptionCost: fc.nat(10),
      createdAt: fc.nat(100),
    });
    fc.assert(
      fc.property(
        fc.array(arbMember, { maxLength: 12 }),
        fc.nat(12),
        fc.option(fc.nat(15), { nil: undefined }),
        (ms, replicas, limitNodes) => {
          const members = ms.map((m, i) => ({ ...m, name: `n${i}`, pendingDisruption: false }));
          const plan = planStatic({ replicas, members, ...(limitNodes === undefined ? {} : { limitNodes }) });
          const active = members.filter((m) => !m.deleting).length;
          const after = active - plan.remove.length + plan.create;
          if (limitNodes !== undefined && plan.create > 0)
            expect(members.length + plan.create).toBeLessThanOrEqual(limitNodes);
          if (plan.limitedBy === undefined) expect(after).toBe(replicas);
          else expect(after).toBeLessThan(replicas);
          expect(plan.remove.every((n) => !members.find((m) => m.name === n)?.deleting)).toBe(true);
        },
      ),
    );
  });
});
