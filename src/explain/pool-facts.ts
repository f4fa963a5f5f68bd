/**
 * What an explanation knows about one NodePool: its requirements and taints, its EC2NodeClass and whether that is
 * Ready, the instance types it may launch (with their offerings), and what it uses against its limits.
 */
import { ConditionTypes, Labels, ConditionReasons } from '../api/index.js';
import {
  fromResourceList,
  prepareInstanceType,
  Requirements,
  type InstanceType,
  type InstanceTypeInfo,
  type Resources,
} from '../scheduling/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../state/informers.js';
import { quantities } from '../controllers/resource-lists.js';
import type { StoredNodeClass } from './snapshot.js';

/** One NodePool as explanations see it. */
export interface PoolFacts {
  name: string;
  pool: StoredNodePool;
  /** Template requirements and labels. */
  requirements: Requirements;
  nodeClass: StoredNodeClass | undefined;
  /** Why the NodePool cannot launch at all (NodeClass missing or not Ready, NodePool deleting), if it cannot. */
  unusable?: { constraint: 'nodeclass' | 'nodepool'; object: string; reason: string; message: string };
  /** Every instance type, offerings as the provider reports them (unavailable ones included). */
  rawTypes: InstanceType[];
  /** Types with at least one available offering, prepared as the solver prepares them. */
  types: InstanceTypeInfo[];
  /** Capacity of its NodeClaims (not being deleted). */
  usage: Resources;
  limits: Resources | undefined;
  /** Zones of the EC2NodeClass's subnets; undefined when unknown. */
  subnetZones: string[] | undefined;
  /** The types with every offering counted available (to tell "out of capacity" from "not allowed"); filled on first use. */
  everyOffering?: InstanceTypeInfo[];
}

function conditionOf(
  conditions: ReadonlyArray<{ type: string; status: string; reason?: string; message?: string }> | undefined,
  type: string,
): { status: string; reason?: string; message?: string } | undefined {
  return conditions?.find((c) => c.type === type);
}

function poolNotReady(np: StoredNodePool): PoolFacts['unusable'] {
  const ready = conditionOf(np.status?.conditions, ConditionTypes.ready);
  if (ready?.status !== 'False') return undefined;
  return {
    constraint: 'nodepool',
    object: `NodePool/${np.metadata.name ?? ''}`,
    reason: ready.reason ?? 'NotReady',
    message: `is not Ready: ${ready.message ?? ''}`,
  };
}

/** Without the NodeClass object (another kind, or a reader that does not list them), the NodePool's conditions say. */
function fromConditions(np: StoredNodePool, object: string): PoolFacts['unusable'] {
  const c = conditionOf(np.status?.conditions, ConditionTypes.nodeClassReady);
  if (c?.status === 'False')
    return {
      constraint: 'nodeclass',
      object,
      reason: c.reason ?? ConditionReasons.nodeClassNotReady,
      message: `is not Ready: ${c.message ?? ''}`,
    };
  return poolNotReady(np);
}

function unusable(
  np: StoredNodePool,
  nc: StoredNodeClass | undefined,
  ref: { text: string; readable: boolean },
): PoolFacts['unusable'] {
  if (np.metadata.deletionTimestamp)
    return {
      constraint: 'nodepool',
      object: `NodePool/${np.metadata.name ?? ''}`,
      reason: 'Deleting',
      message: 'is being deleted',
    };
  if (!ref.readable) return fromConditions(np, ref.text);
  if (!nc)
    return {
      constraint: 'nodeclass',
      object: ref.text,
      reason: ConditionReasons.nodeClassNotFound,
      message: 'is not found on the cluster',
    };
  return nodeClassNotReady(nc, ref.text) ?? poolNotReady(np);
}

function nodeClassNotReady(nc: StoredNodeClass, object: string): PoolFacts['unusable'] {
  const ready = conditionOf(nc.status?.conditions, ConditionTypes.ready);
  if (!ready || ready.status === 'Unknown')
    return {
      constraint: 'nodeclass',
      object,
      reason: ConditionReasons.nodeClassReadinessUnknown,
      message: 'has not been resolved yet (Ready is Unknown)',
    };
  if (ready.status === 'False')
    return {
      constraint: 'nodeclass',
      object,
      reason: ready.reason ?? 'NotReady',
      message: `is not Ready: ${ready.message ?? ready.reason ?? ''}`,
    };
  if (nc.metadata.deletionTimestamp)
    return {
      constraint: 'nodeclass',
      object,
      reason: ConditionReasons.nodeClassTerminating,
      message: 'is being deleted',
    };
  return undefined;
}

function usageByPool(claims: readonly StoredNodeClaim[]): Map<string, Resources> {
  const usage = new Map<string, Resources>();
  for (const nc of claims) {
    const pool = nc.metadata.labels?.[Labels.nodePool];
    if (nc.metadata.deletionTimestamp || !pool) continue;
    const u = usage.get(pool) ?? {};
    for (const [k, v] of Object.entries(
      fromResourceList(quantities(nc.status?.capacity ?? nc.spec.resources?.requests)),
    ))
      u[k] = (u[k] ?? 0) + v;
    usage.set(pool, u);
  }
  return usage;
}

function factsOf(
  np: StoredNodePool,
  nodeClasses: ReadonlyMap<string, StoredNodeClass> | undefined,
  args: { usage: Resources | undefined; rawTypes: InstanceType[] },
): PoolFacts {
  const name = np.metadata.name ?? '';
  const ref = np.spec.template.spec.nodeClassRef;
  const readable = ref.kind === 'EC2NodeClass' && nodeClasses !== undefined;
  const nc = readable ? nodeClasses.get(ref.name) : undefined;
  // Its nodes carry karpenter.sh/nodepool=<name>: a pod selecting another NodePool is ruled out here first.
  const requirements = Requirements.fromSelector(np.spec.template.spec.requirements)
    .addAll(Requirements.fromLabels(np.spec.template.metadata?.labels))
    .addAll(Requirements.fromLabels({ [Labels.nodePool]: name }));
  const zones = nc?.status?.subnets?.map((s) => s.zone);
  return {
    name,
    pool: np,
    requirements,
    nodeClass: nc,
    unusable: unusable(np, nc, { text: `${ref.kind}/${ref.name}`, readable }),
    rawTypes: args.rawTypes,
    types: args.rawTypes.map((t) => prepareInstanceType(t)).filter((t): t is InstanceTypeInfo => t !== undefined),
    usage: args.usage ?? {},
    limits: np.spec.limits ? fromResourceList(quantities(np.spec.limits)) : undefined,
    subnetZones: zones ? [...new Set(zones)].sort() : undefined,
  };
}

/** Builds the facts of every NodePool; `instanceTypes` are by NodePool name. */
export function poolFacts(args: {
  nodePools: readonly StoredNodePool[];
  /** Every EC2NodeClass; undefined when the reader does not have them (NodePool conditions are read instead). */
  nodeClasses: readonly StoredNodeClass[] | undefined;
  nodeClaims: readonly StoredNodeClaim[];
  instanceTypes: ReadonlyMap<string, InstanceType[]>;
}): Map<string, PoolFacts> {
  const classes = args.nodeClasses ? new Map(args.nodeClasses.map((c) => [c.metadata.name ?? '', c])) : undefined;
  const usage = usageByPool(args.nodeClaims);
  const out = new Map<string, PoolFacts>();
  for (const np of args.nodePools) {
    const name = np.metadata.name ?? '';
    out.set(name, factsOf(np, classes, { usage: usage.get(name), rawTypes: args.instanceTypes.get(name) ?? [] }));
  }
  return out;
}
