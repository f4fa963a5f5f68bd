/**
 * `npm run bench -- explain [--nodes N] [--json]`: the time `tenon explain pod` takes for one pending pod in a
 * cluster of N nodes (default 5,000) running 10 pods each, once the snapshot is read (the solve against every
 * node, and the per-NodePool findings). JSON keys: nodes, pods, explainMs, constraint.
 */
import { performance } from 'node:perf_hooks';
import { explainContext, explainPod, type ClusterSnapshot } from '../../src/explain/index.js';
import type { Node, Pod } from '../../src/kube/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../../src/state/informers.js';
import { ec2InstanceTypes } from '../scheduling/ec2-catalog.js';

function flag(args: readonly string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

function snapshot(nodes: number): ClusterSnapshot {
  const stamp = '2026-01-01T00:00:00Z';
  const pool: StoredNodePool = {
    metadata: { name: 'general', creationTimestamp: stamp },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
        },
      },
    },
  } as StoredNodePool;
  const out: ClusterSnapshot = {
    pods: [],
    nodes: [],
    nodeClaims: [],
    nodePools: [pool],
    nodeClasses: [
      {
        metadata: { name: 'default' },
        spec: {},
        status: {
          subnets: [
            { id: 's-a', zone: 'us-east-1a' },
            { id: 's-b', zone: 'us-east-1b' },
            { id: 's-c', zone: 'us-east-1c' },
          ],
          conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: '', lastTransitionTime: stamp }],
        },
      } as unknown as ClusterSnapshot['nodeClasses'][number],
    ],
    pdbs: [],
    daemonSets: [],
    persistentVolumeClaims: [],
    persistentVolumes: [],
    storageClasses: [],
    csiNodes: [],
    events: [],
    namespaces: [],
  };
  for (let i = 0; i < nodes; i++) {
    const name = `node-${i}`;
    const providerID = `aws:///us-east-1a/i-${i}`;
    const labels = {
      'karpenter.sh/nodepool': 'general',
      'kubernetes.io/hostname': name,
      'topology.kubernetes.io/zone': `us-east-1${'abc'[i % 3] ?? 'a'}`,
      'node.kubernetes.io/instance-type': 'm6i.xlarge',
      'karpenter.sh/initialized': 'true',
    };
    out.nodes.push({
      metadata: { name, labels, creationTimestamp: stamp },
      spec: { providerID },
      status: {
        allocatable: { cpu: '3920m', memory: '14Gi', pods: '58' },
        capacity: { cpu: '4', memory: '16Gi', pods: '58' },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    } as Node);
    out.nodeClaims.push({
      metadata: { name: `general-${i}`, labels, creationTimestamp: stamp },
      spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' }, requirements: [] },
      status: { providerID, capacity: { cpu: '4', memory: '16Gi', pods: '58' } },
    } as StoredNodeClaim);
    for (let j = 0; j < 10; j++)
      out.pods.push({
        metadata: { name: `app-${i}-${j}`, namespace: 'default', labels: { app: `app-${j}` } },
        spec: { nodeName: name, containers: [{ name: 'c', resources: { requests: { cpu: '350m', memory: '1Gi' } } }] },
        status: { phase: 'Running' },
      } as Pod);
  }
  out.pods.push({
    metadata: { name: 'too-big', namespace: 'default', creationTimestamp: stamp },
    spec: { containers: [{ name: 'c', resources: { requests: { cpu: '2000', memory: '20Gi' } } }] },
    status: { phase: 'Pending' },
  } as Pod);
  return out;
}

/** The suite. */
export async function explainSuite(args: string[]): Promise<void> {
  const nodes = flag(args, '--nodes', 5000);
  const snap = snapshot(nodes);
  const types = new Map([['general', ec2InstanceTypes({ zoneCount: 3, seed: 1 })]]);
  const runs: number[] = [];
  let constraint = '';
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    const ctx = explainContext(snap, { instanceTypes: types, now: Date.UTC(2026, 0, 1, 1) });
    constraint = explainPod(ctx, 'default/too-big')?.cause?.constraint ?? '';
    runs.push(performance.now() - t0);
  }
  const explainMs = Math.round(Math.min(...runs));
  if (args.includes('--json'))
    process.stdout.write(`${JSON.stringify({ nodes, pods: snap.pods.length, explainMs, constraint })}\n`);
  else
    process.stdout.write(
      `NODES  PODS    EXPLAIN MS (best of 3)  CAUSE\n${String(nodes).padEnd(7)}${String(snap.pods.length).padEnd(8)}${String(explainMs).padEnd(24)}${constraint}\n`,
    );
}
