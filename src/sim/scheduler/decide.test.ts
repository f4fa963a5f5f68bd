import { describe, expect, it } from 'vitest';
import type { Taint } from '../../api/index.js';
import type { Node, Pod } from '../../kube/index.js';
import { Rng } from '../world/random.js';
import { decide, feasibleNodesToFind, type CycleInput } from './decide.js';
import { fitErrorMessage } from './fit-error.js';
import { nodeInfo } from './node-info.js';

function node(
  name: string,
  extra: { zone?: string; taints?: Taint[]; unschedulable?: boolean; cpu?: string } = {},
): Node {
  return {
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': extra.zone ?? 'a' } },
    spec: { taints: extra.taints, unschedulable: extra.unschedulable },
    status: { allocatable: { cpu: extra.cpu ?? '4', memory: '16Gi', pods: '110' } },
  };
}

function pod(name: string, extra: Partial<Pod['spec']> & { labels?: Record<string, string>; cpu?: string } = {}): Pod {
  const { labels, cpu, ...spec } = extra;
  return {
    metadata: { name, namespace: 'default', labels: labels ?? { app: 'web' } },
    spec: { containers: [{ name: 'c', resources: { requests: { cpu: cpu ?? '1' } } }], ...spec },
  };
}

const noVolumes = { claims: [], volumes: [], storageClasses: [], csiNodes: [] };

function cycle(p: Pod, nodes: Array<{ node: Node; pods?: Pod[] }>): ReturnType<typeof decide> {
  const input: CycleInput = {
    pod: p,
    nodes: nodes.map((n) =>
      nodeInfo(
        n.node,
        (n.pods ?? []).map((q) => ({ ...q, spec: { ...q.spec, nodeName: n.node.metadata.name } })),
      ),
    ),
    volumes: noVolumes,
    rng: new Rng(1),
  };
  return decide(input);
}

function message(d: ReturnType<typeof decide>): string {
  return d.kind === 'unschedulable' ? fitErrorMessage(d.diagnosis) : `bind ${d.node}`;
}

describe("the simulated kube-scheduler's filtering (through the placement checker)", () => {
  it("words each node's first failing filter as kube-scheduler does", () => {
    const d = cycle(pod('p', { cpu: '3' }), [
      { node: node('cordoned', { unschedulable: true }) },
      { node: node('tainted', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }) },
      { node: node('full'), pods: [pod('big', { cpu: '2' })] },
      { node: node('small', { cpu: '2' }) },
    ]);
    expect(message(d)).toBe(
      '0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling..',
    );
  });

  it('binds where every rule holds, taking node affinity, tolerations and host ports into account', () => {
    const web = pod('p', {
      nodeSelector: { 'topology.kubernetes.io/zone': 'b' },
      tolerations: [{ key: 'dedicated', operator: 'Exists' }],
    });
    const d = cycle(web, [
      { node: node('in-a') },
      { node: node('in-b', { zone: 'b', taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] }) },
    ]);
    expect(d).toMatchObject({ kind: 'bind', node: 'in-b' });
    const ported = (name: string): Pod =>
      pod(name, {
        containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 8080 }] }] as Pod['spec']['containers'],
      });
    expect(message(cycle(ported('p'), [{ node: node('n'), pods: [ported('other')] }]))).toContain(
      "1 node(s) didn't have free ports for the requested pod ports",
    );
  });

  it("reads quantities the API delivers as JSON numbers (a manifest's `cpu: 3`)", () => {
    const numeric = { cpu: 3 } as unknown as Record<string, string>;
    const p = pod('p', { containers: [{ name: 'c', resources: { requests: numeric } }] });
    const d = cycle(p, [
      { node: node('busy'), pods: [pod('q', { containers: [{ name: 'c', resources: { requests: { cpu: '2' } } }] })] },
      { node: node('idle') },
    ]);
    expect(d).toMatchObject({ kind: 'bind', node: 'idle' });
  });

  it("judges inter-pod rules per node: anti-affinity of a running pod and the pod's own spread", () => {
    const guard = pod('guard', {
      labels: { app: 'db' },
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } } },
          ],
        },
      },
    });
    expect(cycle(pod('p'), [{ node: node('guarded'), pods: [guard] }, { node: node('free') }])).toMatchObject({
      kind: 'bind',
      node: 'free',
    });
    const spread = pod('p', {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
    });
    const d = cycle(spread, [{ node: node('a1'), pods: [pod('w1')] }, { node: node('b1', { zone: 'b', cpu: '0' }) }]);
    expect(message(d)).toBe(
      "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod topology spread constraints. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling..",
    );
  });
});

describe('verdicts kept between cycles', () => {
  it('a pod of the same template sees a node that changed in the same place, and keeps the verdict of one that did not', () => {
    const fullA = nodeInfo(node('a'), [
      { ...pod('big', { cpu: '4' }), spec: { ...pod('big', { cpu: '4' }).spec, nodeName: 'a' } },
    ]);
    const fullB = nodeInfo(node('b'), [
      { ...pod('big2', { cpu: '4' }), spec: { ...pod('big2', { cpu: '4' }).spec, nodeName: 'b' } },
    ]);
    const first = decide({ pod: pod('p1', { cpu: '3' }), nodes: [fullA, fullB], volumes: noVolumes, rng: new Rng(1) });
    expect(first.kind).toBe('unschedulable');
    // Node a's pod left: a new NodeInfo at the same position; b is the same object and still full.
    const freedA = nodeInfo(node('a'), []);
    const second = decide({
      pod: pod('p2', { cpu: '3' }),
      nodes: [freedA, fullB],
      volumes: noVolumes,
      rng: new Rng(1),
    });
    expect(second).toMatchObject({ kind: 'bind', node: 'a' });
    const third = decide({ pod: pod('p3', { cpu: '3' }), nodes: [fullA, fullB], volumes: noVolumes, rng: new Rng(1) });
    expect(message(third)).toContain('2 Insufficient cpu');
  });
});

describe("kube-scheduler's percentageOfNodesToScore", () => {
  it('filters every node of a small cluster and, by the documented formula, 10% of 5,000 nodes and at least 5%', () => {
    expect(feasibleNodesToFind(50)).toBe(50);
    expect(feasibleNodesToFind(100)).toBe(100);
    expect(feasibleNodesToFind(5000)).toBe(500);
    expect(feasibleNodesToFind(10_000)).toBe(500);
    expect(feasibleNodesToFind(1000)).toBe(420);
  });

  it('stops filtering once enough feasible nodes are found and goes on from there next cycle', () => {
    const nodes = Array.from({ length: 200 }, (_, i) => nodeInfo(node(`n${String(i).padStart(3, '0')}`), []));
    const d = decide({ pod: pod('p'), nodes, volumes: noVolumes, rng: new Rng(1), start: 150 });
    expect(d).toMatchObject({ kind: 'bind', examined: 100 });
    // Nodes 150..199 and 0..49 were filtered: the pick is among them.
    const picked = d.kind === 'bind' ? Number(d.node.slice(1)) : -1;
    expect(picked >= 150 || picked < 50).toBe(true);
  });
});
