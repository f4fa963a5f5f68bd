/**
 * Plain-object clusters for the decision layer's tests and the consolidation benchmark: nodes of catalog
 * instance types (allocatable and price from the type's offering), pods by CPU and memory, NodePools with
 * disruption settings. Nothing here talks to an API server.
 */
import type { Budget, ConsolidationPolicy } from '../../../api/index.js';
import { Labels } from '../../../api/index.js';
import type * as sched from '../../../scheduling/index.js';
import type { DisruptionNode, DisruptionNodePool, DisruptionPdb, DisruptionView } from '../types.js';

/** A catalog instance type: `cpu` cores, 4 GiB per core, on-demand at `price`, spot at `spotPrice` if given. */
export function instanceType(opts: {
  name: string;
  cpu: number;
  price: number;
  spotPrice?: number;
  zones?: string[];
  memGi?: number;
}): sched.InstanceType {
  const zones = opts.zones ?? ['zone-a', 'zone-b'];
  const offerings: sched.Offering[] = zones.map((zone) => ({
    zone,
    capacityType: 'on-demand',
    price: opts.price,
    available: true,
  }));
  if (opts.spotPrice !== undefined)
    for (const zone of zones) offerings.push({ zone, capacityType: 'spot', price: opts.spotPrice, available: true });
  return {
    name: opts.name,
    labels: { [Labels.instanceType]: opts.name, 'kubernetes.io/arch': 'amd64', 'kubernetes.io/os': 'linux' },
    capacity: { cpu: String(opts.cpu), memory: `${opts.memGi ?? opts.cpu * 4}Gi`, pods: '110' },
    offerings,
  };
}

/** Sizes 1..32 cores, price proportional to size (on-demand 0.05/core, spot 0.02/core). */
export function catalog(withSpot = false): sched.InstanceType[] {
  return [1, 2, 4, 8, 16, 32].map((cpu) =>
    instanceType({ name: `c.${cpu}x`, cpu, price: cpu * 0.05, ...(withSpot ? { spotPrice: cpu * 0.02 } : {}) }),
  );
}

let podCounter = 0;

/** A pod requesting `cpu` cores (and 1 GiB per core), optionally with labels and annotations. */
export function pod(opts: {
  cpu: number;
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerKind?: string;
}): sched.Pod {
  podCounter++;
  const name = opts.name ?? `p-${podCounter}`;
  return {
    metadata: {
      name,
      namespace: opts.namespace ?? 'default',
      uid: `uid-${name}`,
      labels: opts.labels ?? {},
      annotations: opts.annotations,
      ownerReferences: opts.ownerKind
        ? [{ apiVersion: 'apps/v1', kind: opts.ownerKind, name: 'owner', uid: 'uid-owner', controller: true }]
        : undefined,
    },
    spec: {
      containers: [
        {
          name: 'c',
          resources: {
            requests: { cpu: `${Math.round(opts.cpu * 1000)}m`, memory: `${Math.round(opts.cpu * 1024)}Mi` },
          },
        },
      ],
    },
  };
}

/** What a test says about a node. */
export interface NodeSpec {
  name: string;
  type: string;
  pool?: string;
  zone?: string;
  capacityType?: 'on-demand' | 'spot';
  pods?: sched.Pod[];
  extra?: Partial<DisruptionNode>;
}

function priceOf(it: sched.InstanceType | undefined, zone: string, ct: string): number | undefined {
  return it?.offerings.find((o) => o.zone === zone && o.capacityType === ct)?.price;
}

/** A node of a catalog type, its pods bound to it. */
export function node(spec: NodeSpec, types: readonly sched.InstanceType[]): DisruptionNode {
  const it = types.find((t) => t.name === spec.type);
  const zone = spec.zone ?? 'zone-a';
  const ct = spec.capacityType ?? 'on-demand';
  const pool = spec.pool ?? 'default';
  return {
    name: spec.name,
    nodeClaim: `nc-${spec.name}`,
    nodePool: pool,
    labels: {
      ...it?.labels,
      [Labels.hostname]: spec.name,
      [Labels.zone]: zone,
      [Labels.capacityType]: ct,
      [Labels.nodePool]: pool,
      [Labels.instanceType]: spec.type,
    },
    allocatable: it?.capacity ?? {},
    pods: (spec.pods ?? []).map((p) => ({ ...p, spec: { ...p.spec, nodeName: spec.name } })),
    initialized: true,
    ready: true,
    price: priceOf(it, zone, ct),
    lastPodEventTime: 0,
    ...spec.extra,
  };
}

/** A NodePool's disruption settings. */
export function pool(
  opts: {
    name?: string;
    policy?: ConsolidationPolicy;
    consolidateAfterMs?: number | undefined;
    budgets?: Budget[];
  } = {},
): DisruptionNodePool {
  return {
    name: opts.name ?? 'default',
    consolidationPolicy: opts.policy ?? 'WhenEmptyOrUnderutilized',
    consolidateAfterMs: 'consolidateAfterMs' in opts ? opts.consolidateAfterMs : 0,
    budgets: opts.budgets ?? [{ nodes: '100%' }],
  };
}

/** A whole view; NodePools default to one `default` pool with a 100% budget. */
export function view(opts: {
  nodes: DisruptionNode[];
  types: sched.InstanceType[];
  pools?: DisruptionNodePool[];
  pdbs?: DisruptionPdb[];
  pending?: sched.Pod[];
  now?: number;
  spotToSpot?: boolean;
}): DisruptionView {
  const pools = opts.pools ?? [pool()];
  return {
    now: opts.now ?? 3_600_000,
    nodes: opts.nodes,
    inFlight: [],
    nodePools: pools,
    schedulingNodePools: pools.map((p) => ({ name: p.name, template: { requirements: [] } })),
    instanceTypesByNodePool: Object.fromEntries(pools.map((p) => [p.name, opts.types])),
    daemonSets: [],
    pdbs: opts.pdbs ?? [],
    pendingPods: opts.pending ?? [],
    spotToSpot: opts.spotToSpot ?? false,
  };
}
