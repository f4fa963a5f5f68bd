// Volume topology (SCENARIOS.md S4) after Karpenter's volumetopology cases: a bound PV's node affinity is a hard
// requirement; an unbound PVC with Immediate binding makes the pod wait (with that reason); WaitForFirstConsumer
// restricts zones to allowedTopologies; CSI attach limits on existing nodes.
import { describe, expect, it } from 'vitest';
import type { ExistingNode, Pod, VolumeInfo } from '../model.js';
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
