/**
 * Benchmark clusters: N nodes of common EC2 types (real us-east-1 catalog, on-demand prices), each filled with
 * random pods to 70-95% of its CPU or memory, then a random scale-down removes most of the pods, leaving the
 * fleet underused. Deterministic from the seed.
 */
import {
  catalog as fakeCatalog,
  node as makeNode,
  pod,
  pool,
  view,
} from '../../src/controllers/disruption/testing/cluster.js';
import type { DisruptionNode, DisruptionView } from '../../src/controllers/disruption/types.js';
import { fromResourceList, podRequests } from '../../src/scheduling/index.js';
import type * as sched from '../../src/scheduling/index.js';
import { Rng } from '../scheduling/random.js';
import { loadCatalog } from '../../src/sim/ec2/catalog.js';

const zones = ['us-east-1a', 'us-east-1b', 'us-east-1c'];

/** The general-purpose, compute and memory families of generation 5+, amd64, as a typical NodePool allows. */
export function ec2Catalog(): sched.InstanceType[] {
  return loadCatalog()
    .filter(
      (e) =>
        e.onDemandPriceUSD !== null &&
        e.arch === 'amd64' &&
        ['c', 'm', 'r'].includes(e.category) &&
        e.generation >= 5 &&
        !e.name.includes('metal'),
    )
    .map((e) => ({
      name: e.name,
      labels: e.labels,
      capacity: e.allocatable,
      allocatable: e.allocatable,
      offerings: zones.map((zone) => ({
        zone,
        capacityType: 'on-demand' as const,
        price: e.onDemandPriceUSD ?? 0,
        available: true,
      })),
    }));
}

/** The fleet's starting types: the sizes clusters commonly run. */
const fleetMix = [
  'm5.xlarge',
  'm5.2xlarge',
  'm5.4xlarge',
  'c5.2xlarge',
  'c5.4xlarge',
  'r5.xlarge',
  'r5.2xlarge',
  'm6i.2xlarge',
  'c6i.xlarge',
];
const fakeMix = ['c.4x', 'c.8x', 'c.16x'];

/** An underused cluster of `nodes` nodes. */
export function underusedCluster(opts: { nodes: number; seed: number; keep: number; catalog: 'ec2' | 'fake' }): {
  view: DisruptionView;
  types: sched.InstanceType[];
} {
  const rng = new Rng(opts.seed);
  const types = opts.catalog === 'ec2' ? ec2Catalog() : fakeCatalog();
  const mix = (opts.catalog === 'ec2' ? fleetMix : fakeMix).filter((n) => types.some((t) => t.name === n));
  // The fake catalog (testing/cluster.ts) offers its types in zone-a and zone-b.
  const nodeZones = opts.catalog === 'ec2' ? zones : ['zone-a', 'zone-b'];
  const nodes: DisruptionNode[] = [];
  for (let i = 0; i < opts.nodes; i++) {
    const type = rng.pick(mix);
    const it = types.find((t) => t.name === type);
    const alloc = fromResourceList(it?.allocatable ?? it?.capacity);
    const fill = 0.7 + rng.next() * 0.25;
    const pods: sched.Pod[] = [];
    const used = { cpu: 0, memory: 0 };
    for (let tries = 0; tries < 40; tries++) {
      const cpu = rng.pick([0.25, 0.5, 1, 1.5, 2]);
      const memPerCpu = rng.pick([1, 2, 4, 6]);
      const p = pod({ cpu, name: `p-${i}-${tries}` });
      const c0 = p.spec.containers[0];
      if (c0?.resources?.requests) c0.resources.requests['memory'] = `${Math.round(cpu * memPerCpu * 1024)}Mi`;
      const r = podRequests(p);
      if (
        used.cpu + (r['cpu'] ?? 0) > fill * (alloc['cpu'] ?? 0) ||
        used.memory + (r['memory'] ?? 0) > fill * (alloc['memory'] ?? 0)
      )
        continue;
      used.cpu += r['cpu'] ?? 0;
      used.memory += r['memory'] ?? 0;
      // The scale-down: each pod survives with probability `keep`.
      if (rng.next() < opts.keep) pods.push(p);
    }
    nodes.push(makeNode({ name: `node-${String(i).padStart(4, '0')}`, type, zone: rng.pick(nodeZones), pods }, types));
  }
  return { view: view({ types, nodes, pools: [pool({ budgets: [{ nodes: '100%' }] })] }), types };
}
