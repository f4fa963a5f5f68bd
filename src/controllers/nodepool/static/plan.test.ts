import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { planStatic, type StaticMember } from './plan.js';

const member = (name: string, over: Partial<StaticMember> = {}): StaticMember => ({
  name,
  deleting: false,
  initialized: true,
  pods: 0,
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

  test('scales down by removing uninitialized, then emptiest, then newest NodeClaims', () => {
    const members = [
      member('busy', { pods: 5 }),
      member('young-empty', { createdAt: 10 }),
      member('old-empty', { createdAt: 1 }),
      member('booting', { initialized: false, pods: 0 }),
    ];
    expect(planStatic({ replicas: 1, members }).remove).toEqual(['booting', 'young-empty', 'old-empty']);
  });

  test('for any pool, the NodeClaims kept plus created equal replicas unless the limit stops it, and never exceed the limit', () => {
    const arbMember = fc.record({
      deleting: fc.boolean(),
      initialized: fc.boolean(),
      pods: fc.nat(5),
      createdAt: fc.nat(100),
    });
    fc.assert(
      fc.property(
        fc.array(arbMember, { maxLength: 12 }),
        fc.nat(12),
        fc.option(fc.nat(15), { nil: undefined }),
        (ms, replicas, limitNodes) => {
          const members = ms.map((m, i) => ({ ...m, name: `n${i}` }));
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
