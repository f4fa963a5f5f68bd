import { describe, expect, it } from 'vitest';
import type { Budget } from '../../src/api/index.js';
import {
  allowances,
  allowedByBudgets,
  budgetActive,
  budgetNodes,
  countNodes,
  Unlimited,
} from '../../src/controllers/disruption/budgets/budgets.js';
import { catalog, node, pool } from '../../src/controllers/disruption/testing/cluster.js';

const monday10 = Date.parse('2026-11-23T10:00:00Z');
const types = catalog();

describe('budget nodes', () => {
  it.each([
    ['10%', 5, 1], // rounds up rather than blocking, as Karpenter does
    ['10%', 10, 1],
    ['10%', 11, 2],
    ['0%', 50, 0],
    ['100%', 3, 3],
    ['50%', 0, 0],
    ['3', 10, 3],
    ['0', 10, 0],
  ])('%s of %d nodes allows %d', (nodes, num, expected) => {
    expect(budgetNodes({ nodes }, num)).toBe(expected);
  });
});

describe('budget activity and reasons', () => {
  it.each<[Budget, boolean]>([
    [{ nodes: '0' }, true],
    [{ nodes: '0', schedule: '0 9 * * mon-fri', duration: '8h' }, true],
    [{ nodes: '0', schedule: '0 9 * * sat,sun', duration: '8h' }, false],
    [{ nodes: '0', schedule: '@daily', duration: '11h' }, true],
    [{ nodes: '0', schedule: '@daily', duration: '10h' }, false], // the window [00:00, 10:00) has just closed
    [{ nodes: '0', schedule: '@daily', duration: '9h' }, false],
    [{ nodes: '0', schedule: 'not a cron', duration: '1h' }, true], // unreadable: fail closed
  ])('%j active at Monday 10:00 UTC: %s', (b, active) => {
    expect(budgetActive(b, monday10)).toBe(active);
  });

  it('the most restrictive active budget that applies to the reason wins', () => {
    const p = pool({
      budgets: [
        { nodes: '50%' },
        { nodes: '1', reasons: ['Drifted'] },
        { nodes: '0', reasons: ['Underutilized'], schedule: '0 9 * * mon-fri', duration: '8h' },
        { nodes: '0', reasons: ['Empty'], schedule: '0 20 * * *', duration: '1h' },
      ],
    });
    expect(allowedByBudgets(p, { reason: 'Drifted', numNodes: 10, now: monday10 })).toBe(1);
    expect(allowedByBudgets(p, { reason: 'Underutilized', numNodes: 10, now: monday10 })).toBe(0);
    expect(allowedByBudgets(p, { reason: 'Empty', numNodes: 10, now: monday10 })).toBe(5);
  });

  it('no budgets means the API default of 10%; no active budget means unlimited', () => {
    expect(allowedByBudgets(pool({ budgets: [] }), { reason: 'Empty', numNodes: 30, now: monday10 })).toBe(3);
    expect(
      allowedByBudgets(pool({ budgets: [{ nodes: '0', reasons: ['Drifted'] }] }), {
        reason: 'Empty',
        numNodes: 30,
        now: monday10,
      }),
    ).toBe(Unlimited);
  });
});

describe('nodes in disruption count against the budget', () => {
  const nodes = [
    node({ name: 'a', type: 'c.2x' }, types),
    node({ name: 'b', type: 'c.2x', extra: { deleting: true } }, types),
    node({ name: 'c', type: 'c.2x', extra: { ready: false } }, types),
    node({ name: 'd', type: 'c.2x', extra: { initialized: false } }, types),
    node({ name: 'e', type: 'c.2x', extra: { instanceTerminating: true } }, types),
    node({ name: 'f', type: 'c.2x' }, types),
  ];

  it('counts initialized managed nodes, and those deleting or not Ready as disrupting', () => {
    expect(countNodes(nodes).get('default')).toEqual({ numNodes: 4, disrupting: 2 });
  });

  it.each([
    ['3', 3, 1],
    ['2', 2, 0],
    ['1', 1, 0],
    ['75%', 3, 1],
  ])('budget %s: allowed %d, remaining %d, the 2 disrupting nodes consuming it', (budget, allowed, remaining) => {
    const m = allowances([pool({ budgets: [{ nodes: budget }] })], nodes, { reason: 'Underutilized', now: monday10 });
    expect(m.get('default')).toEqual({ allowed, remaining, consuming: 2 });
  });
});
