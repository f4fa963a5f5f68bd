// Volume topology (SCENARIOS.md S4) after Karpenter's volumetopology cases: a bound PV's node affinity is a hard
// requirement; an unbound PVC with Immediate binding makes the pod wait (with that reason); WaitForFirstConsumer
// restricts zones to allowedTopologies; CSI attach limits on existing nodes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExistingNode, InstanceType, Pod, VolumeInfo } from '../model.js';
import { makeNodePool, makePod, smallCatalog } from '../testing/factories.js';
import { landings } from '../testing/placement.js';
import { solve } from './solve.js';

const zone = 'topology.kubernetes.io/zone';
const withClaim = (name: string, claim: string): Pod =>
  makePod({ name, cpu: '100m', volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }] });
const volumes: VolumeInfo = {
  claims: {
    'default/bound': { storageClassName: 'ebs', volumeName: 'pv-1' },
    'default/immediate': { storageClassName: 'fast' },
    'default/wffc': { storageClassName: 'ebs' },
    'default/bound-2': { storageClassName: 'ebs', volumeName: 'pv-2' },
  },
  volumes: {
    'pv-1': {
      driver: 'ebs.csi.aws.com',
      nodeAffinity: [{ matchExpressions: [{ key: zone, operator: 'In', values: ['test-zone-c'] }] }],
    },
    'pv-2': {
      driver: 'ebs.csi.aws.com',
      nodeAffinity: [{ matchExpressions: [{ key: zone, operator: 'In', values: ['test-zone-a'] }] }],
    },
  },
  storageClasses: {
    ebs: {
      name: 'ebs',
      provisioner: 'ebs.csi.aws.com',
      volumeBindingMode: 'WaitForFirstConsumer',
      allowedTopologies: [{ matchLabelExpressions: [{ key: zone, values: ['test-zone-b'] }] }],
    },
    fast: { name: 'fast', provisioner: 'ebs.csi.aws.com', volumeBindingMode: 'Immediate' },
  },
};
const run = (pods: Pod[], nodes?: ExistingNode[]) =>
  solve({ pods, nodes, volumes, nodePools: [makeNodePool()], instanceTypes: smallCatalog() });

describe('volume topology', () => {
  it('launches in the zone of a bound volume', () => {
    const l = landings(run([withClaim('p', 'bound')]));
    expect(l.get('default/p')?.labels[zone]).toBe('test-zone-c');
  });

  it('does not provision for an unbound Immediate claim, and says it waits for binding', () => {
    const r = run([withClaim('p', 'immediate')]);
    expect(r.newNodeClaims).toEqual([]);
    expect(r.unplaced[0]?.reasons[0]).toMatchObject({ constraint: 'volume-binding' });
    expect(r.unplaced[0]?.reasons[0]?.message).toMatch(/Immediate/);
  });

  it('restricts a WaitForFirstConsumer claim to the allowed topologies', () => {
    const l = landings(run([withClaim('p', 'wffc')]));
    expect(l.get('default/p')?.labels[zone]).toBe('test-zone-b');
  });

  it('reports a missing claim', () => {
    const r = run([withClaim('p', 'nope')]);
    expect(r.unplaced[0]?.reasons[0]?.message).toMatch(/not found/);
  });

  it('respects CSI attach limits on existing nodes', () => {
    const node: ExistingNode = {
      name: 'n1',
      labels: {
        'kubernetes.io/hostname': 'n1',
        [zone]: 'test-zone-a',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
      },
      allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
      csiAttachLimits: { 'ebs.csi.aws.com': 1 },
      pods: [withClaim('already', 'bound')],
    };
    const r = run([withClaim('p', 'bound-2')], [node]);
    expect(r.existingNodes).toEqual([]);
    expect(r.newNodeClaims).toHaveLength(1);
    const roomy = run([withClaim('p', 'bound-2')], [{ ...node, csiAttachLimits: { 'ebs.csi.aws.com': 2 } }]);
    expect(roomy.existingNodes).toEqual([{ pod: 'default/p', node: 'n1' }]);
  });
});

/** `n` pods in `zone`, each with its own bound EBS volume there. */
function volumePods(n: number, zone: string, prefix: string): { pods: Pod[]; info: VolumeInfo } {
  const info: VolumeInfo = { claims: {}, volumes: {} };
  const pods = Array.from({ length: n }, (_, i) => {
    const name = `${prefix}-${i}`;
    (info.claims ?? {})[`default/${name}`] = { storageClassName: 'ebs', volumeName: `pv-${name}` };
    (info.volumes ?? {})[`pv-${name}`] = {
      driver: 'ebs.csi.aws.com',
      nodeAffinity: [{ matchExpressions: [{ key: zoneKey, operator: 'In', values: [zone] }] }],
    };
    return makePod({
      name,
      cpu: '100m',
      memory: '128Mi',
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: name } }],
    });
  });
  return { pods, info };
}
const zoneKey = 'topology.kubernetes.io/zone';

describe('CSI attach limits on planned NodeClaims', () => {
  const catalogWith = (limits: readonly number[]): InstanceType[] =>
    smallCatalog().map((t, i) => ({ ...t, csiAttachLimits: { 'ebs.csi.aws.com': limits[i % limits.length] ?? 1 } }));

  it('gives no NodeClaim more volumes than each of its instance types attaches, and no attach count in requests', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 7 }),
        (perZone, limits) => {
          const parts = perZone.map((n, z) => volumePods(n, `test-zone-${'abc'[z]}`, `z${z}`));
          const instanceTypes = catalogWith(limits);
          const r = solve({
            pods: parts.flatMap((p) => p.pods),
            volumes: {
              claims: Object.assign({}, ...parts.map((p) => p.info.claims)),
              volumes: Object.assign({}, ...parts.map((p) => p.info.volumes)),
              storageClasses: volumes.storageClasses,
            },
            nodePools: [makeNodePool()],
            instanceTypes,
          });
          expect(r.unplaced).toEqual([]);
          const limitOf = new Map(instanceTypes.map((t) => [t.name, t.csiAttachLimits?.['ebs.csi.aws.com'] ?? 0]));
          for (const c of r.newNodeClaims) {
            for (const name of c.instanceTypeOptions) expect(c.pods.length).toBeLessThanOrEqual(limitOf.get(name) ?? 0);
            expect(Object.keys(c.requests).filter((k) => k.includes('attachable'))).toEqual([]);
          }
        },
      ),
      { numRuns: 60, seed: 25 },
    );
  });

  it('fills a type that attaches more before opening another NodeClaim when that is cheaper', () => {
    // m.1x (1 CPU) would hold 8 of these pods but attaches 2 volumes; m.2x attaches 10.
    const instanceTypes = smallCatalog().map((t) => ({
      ...t,
      csiAttachLimits: { 'ebs.csi.aws.com': t.name === 'm.1x' ? 2 : 10 },
    }));
    const { pods, info } = volumePods(8, 'test-zone-a', 'p');
    const r = solve({
      pods,
      volumes: { ...info, storageClasses: volumes.storageClasses },
      nodePools: [makeNodePool()],
      instanceTypes,
    });
    expect(r.newNodeClaims.map((c) => [c.cheapest.instanceType, c.pods.length])).toEqual([['m.2x', 8]]);
  });
});
