import { describe, expect, it } from 'vitest';
import { candidatesOf } from '../../src/controllers/disruption/candidates/candidates.js';
import { catalog, node, pod, view } from '../../src/controllers/disruption/testing/cluster.js';
import type { DisruptionNode } from '../../src/controllers/disruption/types.js';

const types = catalog();
const web = (extra: Parameters<typeof pod>[0] = { cpu: 1 }) =>
  pod({ ...extra, labels: { app: 'web', ...extra.labels } });

function blockedMessage(n: DisruptionNode, pdbAllowed = 1): string | undefined {
  const v = view({
    types,
    nodes: [n],
    pdbs: [
      { name: 'web', namespace: 'default', selector: { matchLabels: { app: 'web' } }, disruptionsAllowed: pdbAllowed },
    ],
  });
  const r = candidatesOf(v);
  return r.blocked.find((b) => b.node.name === n.name)?.message;
}

describe('candidate filtering', () => {
  it.each<[string, DisruptionNode, number, RegExp | undefined]>([
    ['a plain node', node({ name: 'n', type: 'c.2x', pods: [web()] }, types), 1, undefined],
    [
      'do-not-disrupt on the node',
      node({ name: 'n', type: 'c.2x', extra: { doNotDisrupt: true } }, types),
      1,
      /karpenter.sh\/do-not-disrupt/,
    ],
    [
      'a do-not-disrupt pod',
      node(
        {
          name: 'n',
          type: 'c.2x',
          pods: [web({ cpu: 1, name: 'keep', annotations: { 'karpenter.sh/do-not-disrupt': 'true' } })],
        },
        types,
      ),
      1,
      /^pod has "karpenter.sh\/do-not-disrupt" annotation \(Pod=default\/keep\)$/,
    ],
    [
      'a pod whose PDB allows no disruption',
      node({ name: 'n', type: 'c.2x', pods: [web()] }, types),
      0,
      /^pdb prevents pod evictions \(PodDisruptionBudget=\[default\/web\]\)$/,
    ],
    [
      'a DaemonSet pod under a blocking PDB does not count',
      node({ name: 'n', type: 'c.2x', pods: [web({ cpu: 1, ownerKind: 'DaemonSet' })] }, types),
      0,
      undefined,
    ],
    [
      'not initialized: skipped silently',
      node({ name: 'n', type: 'c.2x', extra: { initialized: false } }, types),
      1,
      undefined,
    ],
    [
      'nominated for a pending pod',
      node({ name: 'n', type: 'c.2x', extra: { nominated: true } }, types),
      1,
      /nominated/,
    ],
    ['an unknown NodePool', node({ name: 'n', type: 'c.2x', pool: 'gone' }, types), 1, /NodePool gone not found/],
  ])('%s', (_name, n, allowed, expected) => {
    const msg = blockedMessage(n, allowed);
    if (expected) expect(msg).toMatch(expected);
    else expect(msg).toBeUndefined();
  });

  it('a pod under two PDBs cannot be evicted', () => {
    const v = view({
      types,
      nodes: [node({ name: 'n', type: 'c.2x', pods: [web()] }, types)],
      pdbs: [
        { name: 'a', namespace: 'default', selector: { matchLabels: { app: 'web' } }, disruptionsAllowed: 5 },
        { name: 'b', namespace: 'default', selector: {}, disruptionsAllowed: 5 },
      ],
    });
    expect(candidatesOf(v).blocked[0]?.message).toMatch(/more than one PodDisruptionBudget/);
  });

  it('deleting nodes and unmanaged nodes are neither candidates nor reported', () => {
    const unmanaged: DisruptionNode = { ...node({ name: 'u', type: 'c.2x' }, types), nodeClaim: undefined };
    const v = view({ types, nodes: [node({ name: 'd', type: 'c.2x', extra: { deleting: true } }, types), unmanaged] });
    expect(candidatesOf(v)).toEqual({ candidates: [], blocked: [] });
  });

  it('orders by disruption cost: fewer and cheaper-to-evict pods, and nodes near expiry, first', () => {
    const now = 3_600_000;
    const v = view({
      types,
      now,
      nodes: [
        node({ name: 'two', type: 'c.4x', pods: [pod({ cpu: 1 }), pod({ cpu: 1 })] }, types),
        node({ name: 'one', type: 'c.4x', pods: [pod({ cpu: 1 })] }, types),
        node(
          {
            name: 'expiring',
            type: 'c.4x',
            pods: [pod({ cpu: 1 }), pod({ cpu: 1 }), pod({ cpu: 1 })],
            extra: { createdAt: 0, expireAfterMs: now + 60_000 },
          },
          types,
        ),
      ],
    });
    const costs = Object.fromEntries(candidatesOf(v).candidates.map((c) => [c.node.name, c.disruptionCost]));
    expect(costs['one']).toBeLessThan(costs['two'] ?? 0);
    expect(costs['expiring']).toBeLessThan(costs['one'] ?? 0);
  });
});
