import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../kube/index.js';
import { nodeInfo } from '../scheduler/node-info.js';
import { admit } from './admission.js';

const node: Node = {
  metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1', 'topology.kubernetes.io/zone': 'a' } },
  spec: {
    taints: [
      { key: 'soft', effect: 'NoSchedule' },
      { key: 'hard', value: 'yes', effect: 'NoExecute' },
    ],
  },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '10' } },
};

const pod = (name: string, cpu: string, spec: Partial<Pod['spec']> = {}): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: {
    nodeName: 'n1',
    containers: [{ name: 'c', resources: { requests: { cpu } } }],
    tolerations: [{ key: 'hard', operator: 'Exists' }],
    ...spec,
  },
});

describe("the simulated kubelet's admission", () => {
  it("admits a pod that fits, ignoring NoSchedule taints, and rejects one that does not with the kubelet's reason", () => {
    const busy = nodeInfo(node, [pod('a', '3')]);
    expect(admit(pod('fits', '500m'), busy)).toEqual({ admit: true });
    expect(admit(pod('big', '2'), busy)).toEqual({
      admit: false,
      reason: 'Outcpu',
      message: "Pod was rejected: Node didn't have enough resource: cpu, requested: 2000, used: 3000, capacity: 4000",
    });
    expect(admit(pod('intolerant', '1', { tolerations: [] }), busy)).toMatchObject({
      admit: false,
      reason: 'TaintToleration',
      message: 'Pod was rejected: Predicate TaintToleration failed: node(s) had untolerated taint {hard: yes}',
    });
    expect(admit(pod('elsewhere', '1', { nodeSelector: { 'topology.kubernetes.io/zone': 'b' } }), busy)).toMatchObject({
      admit: false,
      reason: 'NodeAffinity',
    });
  });
});
