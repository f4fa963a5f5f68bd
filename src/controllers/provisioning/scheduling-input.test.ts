import { describe, expect, it } from 'vitest';
import { fakeInstanceType } from '../../cloudprovider/fake/index.js';
import { FakeClock } from '../../clock/index.js';
import { KubeClient, type Node, type Pod } from '../../kube/index.js';
import { solve, type NewNodeClaim } from '../../scheduling/index.js';
import { ClusterState } from '../../state/cluster-state.js';
import { createInformers, type StoredNodeClaim, type StoredNodePool } from '../../state/informers.js';
import { nodeClaimFor } from './nodeclaim-template.js';
import { buildSchedulingInput } from './scheduling-input.js';

// The informers are never started: the test fills their caches as a watch would.
const offline = new KubeClient({
  request: () => Promise.reject(new Error('offline')),
  stream: () => Promise.reject(new Error('offline')),
});

function state(): ClusterState {
  return new ClusterState(createInformers(offline, new FakeClock()), new FakeClock());
}

const types = [
  fakeInstanceType({
    name: 'small',
    cpu: 2,
    memoryGi: 4,
    offerings: [{ zone: 'a', capacityType: 'on-demand', price: 0.1 }],
  }),
  fakeInstanceType({
    name: 'large',
    cpu: 8,
    memoryGi: 32,
    offerings: [{ zone: 'a', capacityType: 'on-demand', price: 0.4 }],
  }),
];

const pool: StoredNodePool = {
  metadata: { name: 'default', uid: 'np-uid' },
  spec: {
    template: {
      metadata: { labels: { team: 'a' }, annotations: { owner: 'me' } },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [],
        startupTaints: [{ key: 'agent', effect: 'NoSchedule' }],
        expireAfter: '720h',
      },
    },
  },
} as StoredNodePool;

function pendingPod(name: string, cpu: string, extra: Partial<Pod> = {}): Pod {
  return {
    metadata: { name, namespace: 'default', ...extra.metadata },
    spec: { containers: [{ name: 'c', resources: { requests: { cpu, memory: '1Gi' } } }], ...extra.spec },
    status: extra.status ?? {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    },
  };
}

describe("the provisioner's view of the cluster", () => {
  it('takes only provisionable pods: unschedulable, unbound, not DaemonSet-owned, not preempting', () => {
    const s = state();
    s.informers.pods.cache.set(pendingPod('wants-node', '1'));
    s.informers.pods.cache.set(
      pendingPod('daemon', '1', {
        metadata: {
          name: 'daemon',
          namespace: 'default',
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: 'u' }],
        },
      }),
    );
    s.informers.pods.cache.set(
      pendingPod('preempting', '1', {
        status: {
          phase: 'Pending',
          nominatedNodeName: 'n1',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
        },
      }),
    );
    s.informers.pods.cache.set(pendingPod('not-yet-tried', '1', { status: { phase: 'Pending' } }));
    const view = buildSchedulingInput(s, [pool], new Map([['default', types]]));
    expect([...view.pods.keys()]).toEqual(['default/wants-node']);
  });

  it("ignores terminal pods, as Karpenter does: finished Job pods neither need capacity nor hold a node's", () => {
    const s = state();
    const unschedulable = [{ type: 'PodScheduled', status: 'False' as const, reason: 'Unschedulable' }];
    s.informers.pods.cache.set(
      pendingPod('failed-pending', '1', { status: { phase: 'Failed', conditions: unschedulable } }),
    );
    s.informers.pods.cache.set(pendingPod('wants-node', '1'));
    s.informers.nodes.cache.set({
      metadata: { name: 'n1', labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: {},
      status: { allocatable: { cpu: '2', memory: '8Gi', pods: '110' } },
    } as Node);
    s.informers.pods.cache.set({
      metadata: { name: 'done', namespace: 'default' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', resources: { requests: { cpu: '2' } } }] },
      status: { phase: 'Succeeded' },
    });
    const view = buildSchedulingInput(s, [pool], new Map([['default', types]]));
    expect([...view.pods.keys()]).toEqual(['default/wants-node']);
    expect(view.input.nodes?.[0]?.pods ?? []).toEqual([]);
    expect(solve(view.input).existingNodes).toEqual([{ pod: 'default/wants-node', node: 'n1' }]);
  });

  it('counts an in-flight NodeClaim at the capacity any of its instance types guarantees, so its pods are not launched twice', () => {
    const s = state();
    const inFlight = {
      metadata: { name: 'default-abc', labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: {
        nodeClassRef: pool.spec.template.spec.nodeClassRef,
        requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['small', 'large'] }],
        resources: { requests: { cpu: '1' } },
      },
    } as StoredNodeClaim;
    s.informers.nodeClaims.cache.set(inFlight);
    s.informers.pods.cache.set(pendingPod('p', '1500m'));
    const view = buildSchedulingInput(s, [pool], new Map([['default', types]]));
    expect(view.input.nodeClaims?.[0]?.allocatable).toMatchObject({ cpu: '2' });
    const result = solve(view.input);
    expect(result.nominated).toEqual([{ pod: 'default/p', nodeClaim: 'default-abc' }]);
    expect(result.newNodeClaims).toEqual([]);
  });

  it('counts an in-flight NodeClaim at the volumes its instance types attach, before and after it launched', () => {
    const s = state();
    const attaching = [
      { ...types[0], csiAttachLimits: { 'ebs.csi.aws.com': 2 } },
      { ...types[1], csiAttachLimits: { 'ebs.csi.aws.com': 3 } },
    ] as typeof types;
    const inFlight = {
      metadata: { name: 'default-abc', labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: {
        nodeClassRef: pool.spec.template.spec.nodeClassRef,
        requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['small', 'large'] }],
        resources: { requests: { cpu: '100m' } },
      },
    } as StoredNodeClaim;
    s.informers.nodeClaims.cache.set(inFlight);
    for (const i of [0, 1, 2]) {
      s.informers.persistentVolumeClaims.cache.set({
        metadata: { name: `data-${i}`, namespace: 'default' },
        spec: { volumeName: `pv-${i}` },
      });
      s.informers.persistentVolumes.cache.set({
        metadata: { name: `pv-${i}` },
        spec: { csi: { driver: 'ebs.csi.aws.com' } },
      });
      s.informers.pods.cache.set(
        pendingPod(`p${i}`, '100m', {
          spec: {
            containers: [{ name: 'c', resources: { requests: { cpu: '100m' } } }],
            volumes: [{ name: 'data', persistentVolumeClaim: { claimName: `data-${i}` } }],
          },
        }),
      );
    }
    const before = solve(buildSchedulingInput(s, [pool], new Map([['default', attaching]])).input);
    // Either type may launch: only 2 volumes are sure to attach.
    expect(before.nominated).toHaveLength(2);
    expect(before.newNodeClaims).toHaveLength(1);
    s.informers.nodeClaims.cache.set({
      ...inFlight,
      metadata: {
        ...inFlight.metadata,
        labels: { ...inFlight.metadata.labels, 'node.kubernetes.io/instance-type': 'large' },
      },
    });
    const after = solve(buildSchedulingInput(s, [pool], new Map([['default', attaching]])).input);
    expect(after.nominated).toHaveLength(3);
    expect(after.newNodeClaims).toEqual([]);
  });

  it('hands each in-flight NodeClaim the pending pods an earlier pass nominated to it', () => {
    const s = state();
    const inFlight = {
      metadata: { name: 'default-abc', labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: {
        nodeClassRef: pool.spec.template.spec.nodeClassRef,
        requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['small'] }],
        resources: { requests: { cpu: '1' } },
      },
    } as StoredNodeClaim;
    s.informers.nodeClaims.cache.set(inFlight);
    s.informers.pods.cache.set(pendingPod('planned', '1'));
    s.informers.pods.cache.set(pendingPod('new', '1'));
    s.nominate('default/planned', 'nodeclaim/default-abc', 20_000);
    const view = buildSchedulingInput(s, [pool], new Map([['default', types]]));
    expect(view.input.nodeClaims?.[0]?.nominatedPods).toEqual(['default/planned']);
  });

  it('puts the pods of a node being deleted back in the input, so their new home launches before the drain', () => {
    const s = state();
    const node = {
      metadata: {
        name: 'old',
        labels: { 'karpenter.sh/nodepool': 'default' },
        deletionTimestamp: '2026-01-01T00:00:00Z',
      },
      spec: {},
      status: { allocatable: { cpu: '8', memory: '32Gi', pods: '110' } },
    } as Node;
    s.informers.nodes.cache.set(node);
    s.informers.pods.cache.set({
      metadata: { name: 'running', namespace: 'default' },
      spec: { nodeName: 'old', containers: [{ name: 'c', resources: { requests: { cpu: '1' } } }] },
      status: { phase: 'Running' },
    });
    const view = buildSchedulingInput(s, [pool], new Map([['default', types]]));
    expect([...view.pods.keys()]).toEqual(['default/running']);
    expect(view.input.nodes?.[0]?.markedForDeletion).toBe(true);
    expect(solve(view.input).newNodeClaims).toHaveLength(1);
  });
});

describe('a NodeClaim for a planned bin', () => {
  const planned: NewNodeClaim = {
    nodePool: 'default',
    requirements: [
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['small', 'large'] },
      { key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gte', values: ['4'] },
    ],
    instanceTypeOptions: ['small', 'large'],
    cheapest: { instanceType: 'small', zone: 'a', capacityType: 'on-demand', price: 0.1 },
    pods: ['default/p'],
    requests: { cpu: '1', memory: '1Gi' },
    taints: [],
    labels: { 'kubernetes.io/hostname': 'hostname-placeholder-1', 'karpenter.sh/nodepool': 'default' },
  };

  it("is named <nodepool>-<suffix>, owned by its NodePool, with the template's labels, annotations, drift hash and taints", () => {
    const nc = nodeClaimFor(pool, planned);
    expect(nc.metadata.generateName).toBe('default-');
    expect(nc.metadata.labels).toEqual({ team: 'a', 'karpenter.sh/nodepool': 'default' });
    expect(nc.metadata.annotations).toMatchObject({ owner: 'me', 'karpenter.sh/nodepool-hash-version': 'v3' });
    expect(nc.metadata.annotations?.['karpenter.sh/nodepool-hash']).toMatch(/^\d+$/);
    expect(nc.metadata.ownerReferences).toEqual([
      { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', name: 'default', uid: 'np-uid', blockOwnerDeletion: true },
    ]);
    expect(nc.spec.startupTaints).toEqual([{ key: 'agent', effect: 'NoSchedule' }]);
    expect(nc.spec.resources?.requests).toEqual({ cpu: '1', memory: '1Gi' });
    expect(nc.spec.expireAfter).toBe('720h');
  });

  it('writes Gte/Lte as they are: the NodeClaim CRD takes them', () => {
    const nc = nodeClaimFor(pool, planned);
    expect(nc.spec.requirements[1]).toEqual({ key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gte', values: ['4'] });
  });
});
