/**
 * The placement the checker judges, rebuilt from the input and the result alone: every node (existing nodes,
 * in-flight NodeClaims and new NodeClaims) with the pods that end up on it, and the accounting of every pending pod.
 */
import { isKnownEphemeralTaintKey, Labels, type Taint } from '../../api/index.js';
import type {
  DaemonSet,
  ExistingNode,
  InstanceType,
  NewNodeClaim,
  Pod,
  SchedulingInput,
  SchedulingResult,
} from '../model.js';
import { addAmounts, amountsOf, podDemand, type Amounts } from '../rules/oracle-amounts.js';
import { claimView, type ClaimOption } from './claim-view.js';
import type { DomainMode, PoolDomainMemo } from '../rules/karpenter-domains.js';
import { blockingTaint, NodeLabels, possiblyMatches } from '../rules/labels.js';
import type { Violation } from './violation.js';

/** A pod on a node in the final placement. */
export interface PlacedPod {
  key: string;
  pod: Pod;
  /** Placed by this solve (pending before); false for pods already bound or nominated. */
  isNew: boolean;
  namespace: string;
  labels: Readonly<Record<string, string>>;
  node: CheckNode;
}

/** A node of the final placement. */
export interface CheckNode {
  target: string;
  kind: 'node' | 'nodeclaim' | 'new';
  labels: NodeLabels;
  /** Taints that will block pods (startup and known ephemeral taints dropped while uninitialized, S1). */
  taints: Taint[];
  /** Every allocatable the node may have: one for existing nodes, one per option for new NodeClaims. */
  capacities: { name: string; allocatable: Amounts }[];
  pods: PlacedPod[];
  nodePool: string | undefined;
  /** DaemonSet pods still to come (new and uninitialized nodes). */
  daemonOverhead: Amounts;
  existing?: ExistingNode;
  claim?: NewNodeClaim;
  options?: ClaimOption[];
}

/** Everything the checks read. */
export interface World {
  input: SchedulingInput;
  result: SchedulingResult;
  nodes: CheckNode[];
  /** Every pod on every node. */
  placed: PlacedPod[];
  pending: Map<string, Pod>;
  violations: Violation[];
  /** Whose topology domains spread counts (see karpenter-domains.ts). */
  domains: DomainMode;
  /** The NodePools' domains found so far, and each pod's demand (memos of this check). */
  poolDomains: PoolDomainMemo;
  demands: WeakMap<Pod, Amounts>;
}

/** `namespace/name`. */
export function keyOf(pod: Pod): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
}

function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect && (a.value ?? '') === (b.value ?? '');
}

function existingTaints(n: ExistingNode): Taint[] {
  const taints = n.taints ?? [];
  if (n.initialized ?? true) return [...taints];
  return taints.filter(
    (t) => !isKnownEphemeralTaintKey(t.key) && !(n.startupTaints ?? []).some((s) => sameTaint(s, t)),
  );
}

function daemonRuns(ds: DaemonSet, node: Pick<CheckNode, 'labels' | 'taints'>): boolean {
  const spec = ds.template.spec;
  if (blockingTaint(node.taints, spec.tolerations ?? [])) return false;
  const selector = Object.entries(spec.nodeSelector ?? {}).map(([key, v]) => ({
    key,
    operator: 'In' as const,
    values: [v],
  }));
  if (!possiblyMatches(node.labels, selector)) return false;
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return !terms?.length || terms.some((t) => possiblyMatches(node.labels, t.matchExpressions ?? []));
}

/** Requests of the DaemonSet pods that may still land on `node` (those already on it excluded). */
function daemonOverhead(
  node: Pick<CheckNode, 'labels' | 'taints'>,
  daemonSets: readonly DaemonSet[],
  present: readonly Pod[],
): Amounts {
  const out: Amounts = new Map();
  for (const ds of daemonSets) {
    if (present.some((p) => p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet' && o.name === ds.name)))
      continue;
    if (daemonRuns(ds, node)) addAmounts(out, podDemand({ metadata: { name: ds.name }, spec: ds.template.spec }));
  }
  return out;
}

function existingNode(n: ExistingNode, kind: 'node' | 'nodeclaim', input: SchedulingInput): CheckNode {
  const node: CheckNode = {
    target: `${kind}/${n.name}`,
    kind,
    labels: NodeLabels.exact(n.labels, n.name),
    taints: existingTaints(n),
    capacities: [{ name: n.name, allocatable: amountsOf(n.allocatable) }],
    pods: [],
    nodePool: n.labels[Labels.nodePool] ?? ('nodePool' in n && typeof n.nodePool === 'string' ? n.nodePool : undefined),
    daemonOverhead: new Map(),
    existing: n,
  };
  if (!(n.initialized ?? true)) node.daemonOverhead = daemonOverhead(node, input.daemonSets ?? [], n.pods ?? []);
  for (const p of n.pods ?? []) node.pods.push(placed(p, node, false));
  return node;
}

function placed(pod: Pod, node: CheckNode, isNew: boolean): PlacedPod {
  return {
    key: keyOf(pod),
    pod,
    isNew,
    namespace: pod.metadata.namespace ?? 'default',
    labels: pod.metadata.labels ?? {},
    node,
  };
}

function catalogFor(input: SchedulingInput, pool: string): Map<string, InstanceType> {
  return new Map((input.instanceTypesByNodePool?.[pool] ?? input.instanceTypes).map((it) => [it.name, it]));
}

function newNode(
  claim: NewNodeClaim,
  index: number,
  world: World,
  catalogs: Map<string, Map<string, InstanceType>>,
): CheckNode | undefined {
  const target = `new/${index}:${claim.labels[Labels.hostname] ?? ''}`;
  const pool = world.input.nodePools.find((p) => p.name === claim.nodePool);
  if (!pool) {
    world.violations.push({
      family: 'nodeclaim',
      target,
      message: `NodeClaim names nodepool ${claim.nodePool}, which does not exist`,
    });
    return undefined;
  }
  let catalog = catalogs.get(pool.name);
  if (!catalog) catalogs.set(pool.name, (catalog = catalogFor(world.input, pool.name)));
  const view = claimView(claim, { pool, catalog, target });
  world.violations.push(...view.violations);
  const node: CheckNode = {
    target,
    kind: 'new',
    labels: view.labels,
    taints: [...(pool.template.taints ?? [])],
    capacities: view.options.map((o) => ({ name: o.name, allocatable: o.allocatable })),
    pods: [],
    nodePool: pool.name,
    daemonOverhead: new Map(),
    claim,
    options: view.options,
  };
  node.daemonOverhead = daemonOverhead(node, world.input.daemonSets ?? [], []);
  return node;
}

/** Puts each pending pod where the result says, recording accounting problems. */
function assign(world: World, byTarget: Map<string, CheckNode>, newNodes: (CheckNode | undefined)[]): void {
  const seen = new Map<string, string>();
  const put = (podKey: string, where: string, node: CheckNode | null | undefined): void => {
    const before = seen.get(podKey);
    if (before !== undefined) {
      world.violations.push({
        family: 'accounting',
        pod: podKey,
        message: `pod appears twice in the result (${before} and ${where})`,
      });
      return;
    }
    seen.set(podKey, where);
    const pod = world.pending.get(podKey);
    if (!pod) {
      world.violations.push({
        family: 'accounting',
        pod: podKey,
        target: where,
        message: 'result places a pod that was not pending',
      });
      return;
    }
    if (node === null) return; // reported unplaced
    if (!node) {
      world.violations.push({
        family: 'accounting',
        pod: podKey,
        target: where,
        message: `result places the pod on ${where}, which does not exist`,
      });
      return;
    }
    const p = placed(pod, node, true);
    node.pods.push(p);
    world.placed.push(p);
  };
  for (const e of world.result.existingNodes) put(e.pod, `node/${e.node}`, byTarget.get(`node/${e.node}`));
  for (const e of world.result.nominated)
    put(e.pod, `nodeclaim/${e.nodeClaim}`, byTarget.get(`nodeclaim/${e.nodeClaim}`));
  world.result.newNodeClaims.forEach((c, i) => {
    for (const k of c.pods) put(k, `new/${i}`, newNodes[i]);
  });
  for (const u of world.result.unplaced) {
    if (u.reasons.length === 0)
      world.violations.push({ family: 'accounting', pod: u.pod, message: 'unplaced pod has no reason' });
    put(u.pod, 'unplaced', null);
  }
  for (const k of world.pending.keys()) {
    if (!seen.has(k))
      world.violations.push({
        family: 'accounting',
        pod: k,
        message: 'pending pod is neither placed nor reported unplaced',
      });
  }
}

/** Rebuilds the final placement. */
export function buildWorld(input: SchedulingInput, result: SchedulingResult, domains: DomainMode = 'kube'): World {
  const world: World = {
    input,
    result,
    nodes: [],
    placed: [],
    pending: new Map(),
    violations: [],
    domains,
    poolDomains: new Map(),
    demands: new WeakMap(),
  };
  for (const p of input.pods) world.pending.set(keyOf(p), p);
  const byTarget = new Map<string, CheckNode>();
  for (const n of input.nodes ?? []) byTarget.set(`node/${n.name}`, existingNode(n, 'node', input));
  for (const n of input.nodeClaims ?? []) byTarget.set(`nodeclaim/${n.name}`, existingNode(n, 'nodeclaim', input));
  const catalogs = new Map<string, Map<string, InstanceType>>();
  const newNodes = result.newNodeClaims.map((c, i) => newNode(c, i, world, catalogs));
  world.nodes = [...byTarget.values(), ...newNodes.filter((n): n is CheckNode => n !== undefined)];
  for (const n of world.nodes) world.placed.push(...n.pods);
  assign(world, byTarget, newNodes);
  return world;
}
