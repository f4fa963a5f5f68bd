import { describe, expect, it } from 'vitest';
import type { NewNodeClaim, Pod, SchedulingInput, SchedulingResult } from '../model.js';
import { makeInstanceType, makeNodePool, makePod } from '../testing/factories.js';
import { checkPlacement } from './check.js';
import { discoveredDomains } from '../rules/karpenter-domains.js';

const zone = 'topology.kubernetes.io/zone';
const hostname = 'kubernetes.io/hostname';
const zones = ['zone-a', 'zone-b', 'zone-c'];
const catalog = [makeInstanceType({ name: 'm.4x', cpu: 4, memGi: 16, price: 0.2, zones })];

const key = (p: Pod): string => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;

function claim(pods: Pod[], host: string, inZone: string): NewNodeClaim {
  return {
    nodePool: 'default',
    requirements: [
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m.4x'] },
      { key: zone, operator: 'In', values: [inZone] },
    ],
    instanceTypeOptions: ['m.4x'],
    cheapest: { instanceType: 'm.4x', zone: inZone, capacityType: 'on-demand', price: 0.2 },
    pods: pods.map(key),
    requests: {},
    taints: [],
    labels: { [hostname]: host, [zone]: inZone },
  };
}

function result(claims: NewNodeClaim[]): SchedulingResult {
  return { existingNodes: [], nominated: [], newNodeClaims: claims, unplaced: [], cost: claims.length * 0.2 };
}

const spreadPods = (n: number, topologyKey: string, extra: Partial<Pod['spec']> = {}): Pod[] =>
  Array.from({ length: n }, (_, i) =>
    makePod({
      name: `web-${i}`,
      cpu: '100m',
      labels: { app: 'web' },
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } },
      ],
      ...extra,
    }),
  );

describe("checkPlacement with Karpenter's topology domains", () => {
  it('counts every zone the NodePool offers: zone-spread pods all in one zone break the constraint only then', () => {
    const pods = spreadPods(3, zone);
    const input: SchedulingInput = { pods, nodePools: [makeNodePool()], instanceTypes: catalog };
    const oneZone = result([claim(pods, 'n1', 'zone-a')]);
    expect(checkPlacement(input, oneZone)).toEqual([]);
    const violations = checkPlacement(input, oneZone, { domains: 'karpenter' });
    expect(violations.map((v) => v.family)).toEqual(['topology-spread', 'topology-spread', 'topology-spread']);
    expect(violations[0]?.message).toContain('least-loaded eligible domain 0');
    const spread = result(pods.map((p, i) => claim([p], `n${i}`, zones[i] ?? 'zone-a')));
    expect(checkPlacement(input, spread, { domains: 'karpenter' })).toEqual([]);
  });

  it("keeps to the zones the pod's node filter and the NodePool's requirements allow", () => {
    const pods = spreadPods(2, zone, { nodeSelector: { [zone]: 'zone-b' } });
    const pool = makeNodePool({ requirements: [{ key: zone, operator: 'In', values: ['zone-a', 'zone-b'] }] });
    const input: SchedulingInput = { pods, nodePools: [pool], instanceTypes: catalog };
    expect(
      discoveredDomains({ ...input, pods: [] }, makePod(), {
        maxSkew: 1,
        topologyKey: zone,
        whenUnsatisfiable: 'DoNotSchedule',
      }),
    ).toEqual(['zone-a', 'zone-b']);
    expect(checkPlacement(input, result([claim(pods, 'n1', 'zone-b')]), { domains: 'karpenter' })).toEqual([]);
  });

  it('takes a hostname minimum of zero (a new node is always possible), as Karpenter does', () => {
    const pods = spreadPods(4, hostname);
    const input: SchedulingInput = { pods, nodePools: [makeNodePool()], instanceTypes: catalog };
    // Two nodes with two pods each: kube-scheduler's minimum is 1, so the skew is 1; Karpenter's minimum is 0.
    const paired = result([claim(pods.slice(0, 2), 'n1', 'zone-a'), claim(pods.slice(2), 'n2', 'zone-b')]);
    expect(checkPlacement(input, paired)).toEqual([]);
    expect(checkPlacement(input, paired, { domains: 'karpenter' })).toHaveLength(4);
  });
});
