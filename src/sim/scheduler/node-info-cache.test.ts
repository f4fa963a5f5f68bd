import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Labels } from '../../api/index.js';
import type { Node, Pod } from '../../kube/index.js';
import { NodeInfoCache } from './node-info-cache.js';

const nodeNames = ['n0', 'n1', 'n2'];
const owners = ['rs-a', 'rs-b'];
const zones = ['zone-a', 'zone-b'];

type Op =
  | { op: 'node'; node: number; zone: number }
  | { op: 'pod'; pod: number; node: number | undefined; owner: number | undefined; done: boolean }
  | { op: 'deletePod'; pod: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('node' as const), node: fc.nat(2), zone: fc.nat(1) }),
  fc.record({
    op: fc.constant('pod' as const),
    pod: fc.nat(7),
    node: fc.option(fc.nat(2), { nil: undefined }),
    owner: fc.option(fc.nat(1), { nil: undefined }),
    done: fc.boolean(),
  }),
  fc.record({ op: fc.constant('deletePod' as const), pod: fc.nat(7) }),
);

function node(name: string, zone: string): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { [Labels.zone]: zone } } } as Node;
}

function pod(i: number, nodeName: string | undefined, owner: string | undefined, done: boolean): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `p${i}`,
      namespace: 'default',
      uid: `uid-${i}`,
      ...(owner
        ? {
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, uid: owner, controller: true }],
          }
        : {}),
    },
    spec: { containers: [{ name: 'c', image: 'i' }], ...(nodeName ? { nodeName } : {}) },
    status: { phase: done ? 'Succeeded' : 'Running' },
  } as Pod;
}

describe('the simulated scheduler cache', () => {
  it('counts each owner’s bound, unfinished pods in their node’s current zone, through any sequence of changes', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const cache = new NodeInfoCache();
        // The model: the latest node zones and pods, counted from scratch at the end.
        const zoneOf = new Map<string, string>();
        const pods = new Map<number, Pod>();
        for (const o of ops) {
          if (o.op === 'node') {
            const name = nodeNames[o.node] ?? '';
            const zone = zones[o.zone] ?? '';
            zoneOf.set(name, zone);
            cache.setNode(node(name, zone));
          } else if (o.op === 'pod') {
            const p = pod(
              o.pod,
              o.node === undefined ? undefined : nodeNames[o.node],
              o.owner === undefined ? undefined : owners[o.owner],
              o.done,
            );
            pods.set(o.pod, p);
            cache.setPod(p);
          } else {
            pods.delete(o.pod);
            cache.deletePod(`default/p${o.pod}`);
          }
        }
        for (const owner of owners) {
          const want = new Map<string, number>();
          for (const p of pods.values()) {
            const n = p.spec.nodeName;
            if (!n || p.status?.phase === 'Succeeded' || p.metadata.ownerReferences?.[0]?.uid !== owner) continue;
            const zone = zoneOf.get(n) ?? '';
            want.set(zone, (want.get(zone) ?? 0) + 1);
          }
          expect(new Map([...cache.zoneCounts(owner)].sort())).toEqual(new Map([...want].sort()));
        }
      }),
      { numRuns: 300 },
    );
  });
});
