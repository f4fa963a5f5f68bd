// The provisioning controller's FailedScheduling cause and fix for a pod the NodePool limits keep out in the same
// pass: the solver's reason (planned NodeClaims counted at the types they launch as) becomes a fix with the limit
// that would let the smallest type holding the pod launch.
import { describe, expect, it } from 'vitest';
import type { Pod as CorePod } from '../kube/index.js';
import { solve } from '../scheduling/solver/solve.js';
import { makeInstanceType, makeNodePool } from '../scheduling/testing/factories.js';
import type { StoredNodePool } from '../state/informers.js';
import { UnplacedDiagnoser } from './unplaced.js';

const types = [
  makeInstanceType({ name: 'm.4x', cpu: 4, memGi: 16, price: 0.2 }),
  makeInstanceType({ name: 'm.16x', cpu: 16, memGi: 64, price: 0.8 }),
];

/** Pods with host port 80: each needs its own node. */
const pods: CorePod[] = Array.from({ length: 5 }, (_, i) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `web-${i}`, namespace: 'default', uid: `u${i}` },
  spec: {
    containers: [
      {
        name: 'c',
        image: 'app',
        ports: [{ containerPort: 80, hostPort: 80 }],
        resources: { requests: { cpu: '1', memory: '1Gi' } },
      },
    ],
  },
}));

const capped: StoredNodePool = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'capped' },
  spec: {
    template: {
      spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' }, requirements: [] },
    },
    limits: { cpu: '16' },
  },
  status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: '', lastTransitionTime: '' }] },
};

describe('FailedScheduling for a pod the NodePool limits keep out in the same pass', () => {
  it('places what fits at the cheapest types and tells the limit that would take the rest', () => {
    const r = solve({
      pods,
      nodePools: [makeNodePool({ name: 'capped', limits: { cpu: '16' } })],
      instanceTypes: types,
    });
    expect(r.newNodeClaims).toHaveLength(4);
    const left = r.unplaced[0];
    const pod = pods.find((p) => `default/${p.metadata.name}` === left?.pod);
    if (!left || !pod) throw new Error('expected one pod left over');
    const d = new UnplacedDiagnoser({
      nodePools: [capped],
      nodeClaims: [],
      instanceTypes: new Map([['capped', types]]),
      volumes: {},
    });
    const cause = d.diagnose(pod, left.reasons);
    expect(cause?.cause).toMatchObject({ constraint: 'nodepool-limits', object: 'NodePool/capped' });
    expect(cause?.fix).toBe(
      'raise spec.limits.cpu of NodePool `capped` to at least 20 CPU (16 CPU in use or planned now, and m.4x adds 4 CPU), or remove capacity it holds',
    );
  });
});
