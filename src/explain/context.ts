/** Everything explanations of one snapshot share: the objects, their indexes, NodePool facts and the time. */
import { ConditionTypes } from '../api/index.js';
import { defaultRepairPolicies, type RepairPolicy } from '../cloudprovider/index.js';
import type { InstanceType } from '../scheduling/index.js';
import type { StoredNodeClaim } from '../state/informers.js';
import { poolFacts, type PoolFacts } from './pool-facts.js';
import { SnapshotIndex } from './scheduling-view.js';
import { timeOf, type ClusterSnapshot } from './snapshot.js';

/** How long a NodeClaim takes from creation to Ready when the cluster shows none to learn from. */
export const defaultReadyMs = 60_000;

/** The shared state of explanations over one snapshot. */
export interface ExplainContext {
  snapshot: ClusterSnapshot;
  index: SnapshotIndex;
  /** NodePools by name, in the solver's order (weight, then name). */
  pools: Map<string, PoolFacts>;
  instanceTypes: ReadonlyMap<string, InstanceType[]>;
  now: number;
  /** How long provisioning may wait before it acts on a pending pod (its batch window at most). */
  batchMaxMs: number;
  /** Typical creation-to-Ready time of this cluster's NodeClaims. */
  readyMs: number;
  /** node.health's repair policies and the share of a NodePool's nodes that may be unhealthy before it stops. */
  repair: { policies: readonly RepairPolicy[]; threshold: number };
}

function typicalReady(claims: readonly StoredNodeClaim[]): number {
  const times: number[] = [];
  for (const nc of claims) {
    const ready = nc.status?.conditions?.find((c) => c.type === ConditionTypes.ready && c.status === 'True');
    const from = timeOf(nc.metadata.creationTimestamp);
    const to = timeOf(ready?.lastTransitionTime);
    if (from !== undefined && to !== undefined && to >= from) times.push(to - from);
  }
  if (times.length === 0) return defaultReadyMs;
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? defaultReadyMs;
}

/** Builds the context; `instanceTypes` are what each NodePool may launch, by NodePool name. */
export function explainContext(
  snapshot: ClusterSnapshot,
  o: {
    instanceTypes: ReadonlyMap<string, InstanceType[]>;
    now: number;
    batchMaxMs?: number;
    repair?: { policies: readonly RepairPolicy[]; threshold: number };
    /** The controller's provider ignores EC2NodeClasses (the fake one): judge NodePools by their conditions. */
    ignoreNodeClasses?: boolean;
  },
): ExplainContext {
  const ordered = [...snapshot.nodePools].sort(
    (a, b) =>
      (b.spec.weight ?? 0) - (a.spec.weight ?? 0) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
  );
  return {
    snapshot,
    index: new SnapshotIndex(snapshot),
    pools: poolFacts({
      nodePools: ordered,
      nodeClasses: o.ignoreNodeClasses ? undefined : snapshot.nodeClasses,
      nodeClaims: snapshot.nodeClaims,
      instanceTypes: o.instanceTypes,
    }),
    instanceTypes: o.instanceTypes,
    now: o.now,
    batchMaxMs: o.batchMaxMs ?? 10_000,
    readyMs: typicalReady(snapshot.nodeClaims),
    repair: o.repair ?? { policies: defaultRepairPolicies, threshold: 0.2 },
  };
}
