/**
 * The disruption view of the live cluster: the provisioning scheduling input (nodes with their pods, in-flight
 * NodeClaims, pending pods, NodePools, instance types, DaemonSets) joined with what disruption reads on top —
 * NodeClaim conditions and annotations, offering prices, PDBs and nominations.
 */
import { bufferPods } from '../../capacitybuffer/buffer-pods.js';
import { Annotations, ConditionTypes, Labels } from '../../../api/index.js';
import type { InstanceType as ProviderInstanceType } from '../../../cloudprovider/index.js';
import { nodeReadyCondition } from '../../../kube/index.js';
import type * as sched from '../../../scheduling/index.js';
import { parseDuration } from '../../../settings/duration.js';
import type { StoredNodeClaim, StoredNodePool } from '../../../state/informers.js';
import { cloudPool } from '../../cloud-objects.js';
import { getCondition, isTrue } from '../../conditions.js';
import type { ControllerContext } from '../../context.js';
import { isProvisionable, podKey } from '../../provisioning/provisionable.js';
import { buildSchedulingInput, type SchedulingInputCache } from '../../provisioning/scheduling-input.js';
import { limitNodesOf, poolClaims, staticClaim, staticCounts } from '../../nodepool/static/members.js';
import type { DisruptionNode, DisruptionNodePool, DisruptionPdb, DisruptionView, StaticPool } from '../types.js';

/** The hourly price of the offering a node runs on (instance type x zone x capacity type, and reservation). */
export function offeringPrice(
  labels: Readonly<Record<string, string>>,
  types: readonly ProviderInstanceType[] | undefined,
): number | undefined {
  const it = types?.find((t) => t.name === labels[Labels.instanceType]);
  const reservation = labels[Labels.capacityReservationId];
  const o = it?.offerings.find(
    (x) =>
      x.zone === labels[Labels.zone] &&
      x.capacityType === labels[Labels.capacityType] &&
      (reservation === undefined || x.reservationId === reservation),
  );
  return o?.price;
}

function staticPool(np: StoredNodePool, ctx: ControllerContext): StaticPool | undefined {
  if (np.spec.replicas === undefined) return undefined;
  const limitNodes = limitNodesOf(np);
  return {
    replicas: np.spec.replicas,
    ...(limitNodes === undefined ? {} : { limitNodes }),
    ...staticCounts(poolClaims(ctx, np.metadata.name ?? '')),
    template: staticClaim(np),
  };
}

function disruptionPool(np: StoredNodePool, ctx: ControllerContext): DisruptionNodePool {
  const d = np.spec.disruption;
  const after = d?.consolidateAfter;
  const fixed = staticPool(np, ctx);
  return {
    name: np.metadata.name ?? '',
    consolidationPolicy: d?.consolidationPolicy ?? 'WhenEmptyOrUnderutilized',
    // A static NodePool (spec.replicas) is never consolidated: as `Never`, so emptiness and consolidation skip it.
    consolidateAfterMs:
      np.spec.replicas !== undefined || after === 'Never' ? undefined : after === undefined ? 0 : parseDuration(after),
    budgets: d?.budgets ?? [],
    ...(fixed ? { static: fixed } : {}),
  };
}

function ms(text: string | undefined): number | undefined {
  const t = Date.parse(text ?? '');
  return Number.isFinite(t) ? t : undefined;
}

interface NodeFacts {
  nc: StoredNodeClaim | undefined;
  types: ReadonlyMap<string, ProviderInstanceType[]>;
  claimed: ReadonlySet<string>;
  nominated: ReadonlySet<string>;
}

/** What the NodeClaim says about disruption. */
function claimFacts(nc: StoredNodeClaim): Partial<DisruptionNode> {
  const conds = nc.status?.conditions;
  const drifted = getCondition(conds, ConditionTypes.drifted);
  const initializedAt = ms(getCondition(conds, ConditionTypes.initialized)?.lastTransitionTime);
  const expire = nc.spec.expireAfter;
  return {
    nodeClaim: nc.metadata.name,
    instanceTerminating: isTrue(conds, ConditionTypes.instanceTerminating),
    drifted: drifted?.status === 'True' ? (drifted.reason ?? 'Drifted') : undefined,
    lastPodEventTime: ms(nc.status?.lastPodEventTime) ?? initializedAt ?? ms(nc.metadata.creationTimestamp),
    createdAt: ms(nc.metadata.creationTimestamp),
    expireAfterMs: expire && expire !== 'Never' ? parseDuration(expire) : undefined,
    initialized: isTrue(conds, ConditionTypes.initialized),
  };
}

/**
 * The latest pod event the cache itself shows (a pod scheduled or created on the node), so a decision never
 * waits on the marking controller having written `lastPodEventTime` yet.
 */
function latestBinding(pods: readonly sched.Pod[]): number | undefined {
  let latest: number | undefined;
  for (const p of pods) {
    const scheduled = p.status?.conditions?.find((c) => c.type === 'PodScheduled')?.lastTransitionTime;
    const t = ms(scheduled) ?? ms(p.metadata.creationTimestamp);
    if (t !== undefined && (latest === undefined || t > latest)) latest = t;
  }
  return latest;
}

function disruptionNode(n: sched.ExistingNode, ctx: ControllerContext, f: NodeFacts): DisruptionNode {
  const node = ctx.informers.nodes.cache.get(n.name);
  const pool = n.labels[Labels.nodePool];
  const dnd = (o: { metadata: { annotations?: Record<string, string> } } | undefined): boolean =>
    o?.metadata.annotations?.[Annotations.doNotDisrupt] === 'true';
  const claim = f.nc ? claimFacts(f.nc) : { nodeClaim: undefined };
  const bound = latestBinding(n.pods ?? []);
  return {
    ...n,
    // Terminating pods are on their way out already: neither moved nor counted as blockers.
    pods: (n.pods ?? []).filter((p) => !p.metadata.deletionTimestamp),
    ...claim,
    lastPodEventTime: Math.max(claim.lastPodEventTime ?? 0, bound ?? 0) || undefined,
    nodePool: f.nc ? pool : undefined,
    price: offeringPrice(n.labels, pool ? f.types.get(pool) : undefined),
    doNotDisrupt: dnd(node) || dnd(f.nc),
    ready: node ? nodeReadyCondition(node)?.status === 'True' : false,
    deleting: Boolean(n.markedForDeletion) || f.claimed.has(n.name),
    nominated: f.nominated.has(n.name),
  };
}

function pdbsOf(ctx: ControllerContext): DisruptionPdb[] {
  return ctx.informers.pdbs.cache.list().map((p) => ({
    name: p.metadata.name ?? '',
    namespace: p.metadata.namespace ?? 'default',
    selector: p.spec?.selector as sched.LabelSelector | undefined,
    disruptionsAllowed: p.status?.disruptionsAllowed ?? 0,
  }));
}

/** Builds the view; `claimed` are nodes that commands in flight are already disrupting. */
export async function buildView(
  ctx: ControllerContext,
  claimed: ReadonlySet<string>,
  inputCache?: SchedulingInputCache,
): Promise<DisruptionView> {
  const pools = ctx.informers.nodePools.cache.list().filter((np) => !np.metadata.deletionTimestamp);
  const types = new Map<string, ProviderInstanceType[]>();
  await Promise.all(
    pools.map(async (np) => types.set(np.metadata.name ?? '', await ctx.cloudProvider.getInstanceTypes(cloudPool(np)))),
  );
  const built = buildSchedulingInput(ctx.state, pools, types, inputCache);
  const pods = built.pods;
  // Simulations place pods as provisioning would, under the same preference policy.
  const input = { ...built.input, preferencePolicy: ctx.options.preferencePolicy };
  const pending = [...pods.values()].filter(isProvisionable);
  const pendingKeys = new Set(pending.map(podKey));
  const nominated = new Set<string>();
  // Buffer pods never bind: the nodes provisioning keeps their room on are nominated, as for pending pods. So
  // are those kept for the pods of deleting nodes (an interrupted node's replacement holds no pod until it drains).
  const buffered = bufferPods(ctx.informers);
  for (const p of [...pods.values(), ...buffered]) {
    const target = ctx.state.nominationOf(podKey(p))?.target;
    if (target?.startsWith('node/')) nominated.add(target.slice('node/'.length));
  }
  const nodes = (input.nodes ?? []).map((n) => {
    const node = ctx.informers.nodes.cache.get(n.name);
    const nc = node ? ctx.state.nodeClaimOf(node) : undefined;
    return disruptionNode(n, ctx, { nc, types, claimed, nominated });
  });
  return {
    now: ctx.clock.now(),
    nodes,
    inFlight: input.nodeClaims ?? [],
    nodePools: pools.map((np) => disruptionPool(np, ctx)),
    schedulingNodePools: input.nodePools,
    instanceTypesByNodePool: input.instanceTypesByNodePool ?? {},
    daemonSets: input.daemonSets ?? [],
    pdbs: pdbsOf(ctx),
    // CapacityBuffers' virtual pods count as pending: consolidation must leave their room (capacitybuffer/).
    pendingPods: [
      ...input.pods.filter((p) => pendingKeys.has(`${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`)),
      ...buffered,
    ],
    spotToSpot: ctx.options.featureGates.SpotToSpotConsolidation,
  };
}
