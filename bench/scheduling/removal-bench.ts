/**
 * `npm run bench -- scheduling --workload removal [--sizes 1000]`: disruption's question timed. A cluster of N nodes
 * (m6i.xlarge from the EC2 catalog, three zones, six pods each with the diverse mix's requests, a third of them
 * zone-spread) is loaded into one RemovalSimulator, which then answers "could this node go" for up to 200 single
 * candidates; the row gives the mean wall time per candidate.
 */
import { RemovalSimulator, type ExistingNode, type Pod } from '../../src/scheduling/index.js';
import { ec2InstanceTypes, zones } from './ec2-catalog.js';
import { Rng } from './random.js';

/** One JSON line of the removal workload. */
export interface RemovalRow {
  suite: 'scheduling';
  workload: 'removal';
  nodes: number;
  candidates: number;
  msPerCandidate: number;
  feasible: number;
}

function podOn(node: string, i: number, rng: Rng): Pod {
  const name = `${node}-p${i}`;
  const spread = i % 3 === 0;
  return {
    metadata: { name, namespace: 'default', uid: name, labels: { app: spread ? 'web' : 'batch' } },
    spec: {
      nodeName: node,
      containers: [
        {
          name: 'app',
          resources: {
            requests: { cpu: rng.pick(['100m', '250m', '500m']), memory: rng.pick(['256Mi', '512Mi', '1024Mi']) },
          },
        },
      ],
      ...(spread
        ? {
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'topology.kubernetes.io/zone',
                whenUnsatisfiable: 'DoNotSchedule' as const,
                labelSelector: { matchLabels: { app: 'web' } },
              },
            ],
          }
        : {}),
    },
  };
}

/** Times RemovalSimulator.simulate on a cluster of `nodes` nodes. */
export function runRemoval(opts: { nodes: number; seed: number }): RemovalRow {
  const rng = new Rng(opts.seed);
  const instanceTypes = ec2InstanceTypes({ zoneCount: 3, seed: opts.seed });
  const type = instanceTypes.find((t) => t.name === 'm6i.xlarge');
  const zs = zones(3);
  const nodes: ExistingNode[] = Array.from({ length: opts.nodes }, (_, n) => {
    const name = `node-${String(n).padStart(5, '0')}`;
    return {
      name,
      labels: {
        ...(type?.labels ?? {}),
        'topology.kubernetes.io/zone': zs[n % zs.length] ?? 'us-east-1a',
        'kubernetes.io/hostname': name,
        'karpenter.sh/nodepool': 'default',
        'karpenter.sh/capacity-type': 'on-demand',
      },
      allocatable: type?.allocatable ?? { cpu: '3920m', memory: '14162Mi', pods: '58' },
      capacity: type?.capacity,
      pods: Array.from({ length: 6 }, (_, i) => podOn(name, i, rng)),
      price: 0.192,
    };
  });
  const nodePools = [
    {
      name: 'default',
      template: {
        requirements: [
          { key: 'karpenter.k8s.aws/instance-category', operator: 'In' as const, values: ['c', 'm', 'r'] },
          { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['on-demand'] },
        ],
      },
    },
  ];
  const sim = new RemovalSimulator({ pods: [], nodes, nodePools, instanceTypes });
  const candidates = Math.min(200, opts.nodes);
  sim.simulate([nodes[0]?.name ?? '']);
  let feasible = 0;
  const t0 = performance.now();
  for (let i = 0; i < candidates; i++)
    if (sim.simulate([nodes[(i * 7919) % nodes.length]?.name ?? '']).feasible) feasible++;
  const ms = (performance.now() - t0) / candidates;
  return {
    suite: 'scheduling',
    workload: 'removal',
    nodes: opts.nodes,
    candidates,
    msPerCandidate: Number(ms.toFixed(3)),
    feasible,
  };
}
