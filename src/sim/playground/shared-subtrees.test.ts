import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SharedSubtrees } from './shared-subtrees.js';

describe('shared subtrees of cached objects', () => {
  it('leaves every object equal to what was parsed', () => {
    const shared = new SharedSubtrees();
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (v, w) => {
        const text = JSON.stringify({
          kind: 'Pod',
          metadata: { name: 'a', labels: { v }, ownerReferences: [w] },
          spec: { v, w },
          status: { conditions: [v, w], containerStatuses: [w], hostIPs: v },
        });
        const parsed = JSON.parse(text) as Parameters<SharedSubtrees['shareParts']>[0];
        shared.shareParts(parsed);
        expect(parsed).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('gives two pods of one template on one node the same frozen spec and labels, and other pods their own', () => {
    const shared = new SharedSubtrees();
    const pod = (name: string, node: string) => ({
      kind: 'Pod',
      metadata: { name, labels: { app: 'web' } },
      spec: { nodeName: node, containers: [{ name: 'c', image: 'x' }] },
    });
    const [a, b, c] = [pod('a', 'n1'), pod('b', 'n1'), pod('c', 'n2')];
    for (const p of [a, b, c]) shared.shareParts(p);
    expect(a.spec).toBe(b.spec);
    expect(a.metadata.labels).toBe(c.metadata.labels);
    expect(c.spec).not.toBe(a.spec);
    expect(c.spec.nodeName).toBe('n2');
    expect(() => {
      (a.spec.containers[0] as { image: string }).image = 'changed';
    }).toThrow(TypeError);
    expect(b.spec.containers[0]?.image).toBe('x');
  });

  it('shares the container statuses and conditions of pods started in the same second, not of pods started at another time', () => {
    const shared = new SharedSubtrees();
    const pod = (name: string, startedAt: string) => ({
      kind: 'Pod',
      metadata: { name },
      status: {
        phase: 'Running',
        podIP: `10.0.0.${name.length}`,
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: startedAt }],
        containerStatuses: [{ name: 'c', ready: true, state: { running: { startedAt } } }],
        hostIPs: [{ ip: '10.1.0.1' }],
      },
    });
    const [a, b, c] = [
      pod('a', '2026-01-01T00:00:01Z'),
      pod('bb', '2026-01-01T00:00:01Z'),
      pod('ccc', '2026-01-01T00:00:02Z'),
    ];
    for (const p of [a, b, c]) shared.shareParts(p);
    expect(a.status.containerStatuses).toBe(b.status.containerStatuses);
    expect(Object.isFrozen(a.status.containerStatuses[0]?.state.running)).toBe(true);
    expect(c.status.containerStatuses).not.toBe(a.status.containerStatuses);
    expect(c.status.containerStatuses[0]?.state.running.startedAt).toBe('2026-01-01T00:00:02Z');
    expect(a.status.hostIPs).toBe(c.status.hostIPs);
    expect(a.status.conditions).toBe(b.status.conditions);
    expect(c.status.conditions).not.toBe(a.status.conditions);
    expect(b.status.podIP).toBe('10.0.0.2');
  });
});
