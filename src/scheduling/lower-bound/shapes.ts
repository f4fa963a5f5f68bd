/**
 * The relaxation's building blocks. Pending pods are grouped into classes (same demand, same node constraints, same
 * hostname anti-affinity group); NodePools × instance types × capacity types become node variants with a price (the
 * cheapest allowed offering of that capacity type) and a capacity (allocatable minus the DaemonSet pods certain to
 * run there); existing nodes contribute their free capacity at no cost. A class may use a variant when its node
 * constraints may hold there — a superset of what is really allowed, which keeps the bound a relaxation.
 */
import { Labels } from '../../api/index.js';
import { amountsOf, podDemand, type Amounts } from '../rules/oracle-amounts.js';
import { blockingTaint, NodeLabels, possiblyMatches, selectorMatches } from '../rules/labels.js';
import type { ExistingNode, InstanceType, LabelSelector, NodePool, Pod, SchedulingInput } from '../model.js';

/** A group of identical pending pods. */
export interface PodClass {
  id: number;
  demand: Amounts;
  count: number;
  pods: Pod[];
  /** Hostname anti-affinity group: at most one member per node. */
  antiGroup: string | undefined;
}

/** A kind of node a solution may use. */
export interface Variant {
  id: number;
  name: string;
  pool: string | undefined;
  price: number;
  capacity: Amounts;
  /** Node capacity counted against the NodePool's limits. */
  limitCapacity: Amounts;
  /** The cheapest allowed offering per zone (existing nodes: their zone, free). */
  zonePrices: ReadonlyMap<string, number>;
  /** Existing nodes: usable once. */
  existing: boolean;
  labels: NodeLabels;
  taints: NonNullable<NodePool['template']['taints']>;
}

/** Whether a term's selector, by labels alone (no expressions), selects its own pod: a group of one's peers. */
function selectsOwnLabels(sel: LabelSelector | undefined, labels: Record<string, string>): boolean {
  return !!sel && (sel.matchExpressions ?? []).length === 0 && selectorMatches(sel, labels);
}

function hostnameAntiGroup(pod: Pod): string | undefined {
  const labels = pod.metadata.labels ?? {};
  for (const t of pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
    if (t.topologyKey !== Labels.hostname || t.namespaces?.length || t.namespaceSelector) continue;
    if (selectsOwnLabels(t.labelSelector, labels))
      return JSON.stringify([pod.metadata.namespace ?? 'default', t.labelSelector]);
  }
  return undefined;
}

function signature(pod: Pod, demand: Amounts, anti: string | undefined): string {
  const s = pod.spec;
  return JSON.stringify([
    [...demand].map(([k, v]) => `${k}=${v}`).sort(),
    s.nodeSelector ?? null,
    s.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? null,
    s.tolerations ?? null,
    anti ?? null,
  ]);
}

/** Groups pending pods into classes. */
export function podClasses(pods: readonly Pod[]): PodClass[] {
  const by = new Map<string, PodClass>();
  for (const pod of pods) {
    const demand = podDemand(pod);
    const anti = hostnameAntiGroup(pod);
    const sig = signature(pod, demand, anti);
    let c = by.get(sig);
    if (!c) by.set(sig, (c = { id: by.size, demand, count: 0, pods: [], antiGroup: anti }));
    c.count++;
    c.pods.push(pod);
  }
  return [...by.values()];
}

/** True when pods of `c` may run on `v`. */
export function compatible(c: PodClass, v: Variant): boolean {
  const pod = c.pods[0];
  if (!pod) return false;
  if (blockingTaint(v.taints, pod.spec.tolerations ?? [])) return false;
  const sel = Object.entries(pod.spec.nodeSelector ?? {}).map(([key, value]) => ({
    key,
    operator: 'In' as const,
    values: [value],
  }));
  if (!possiblyMatches(v.labels, sel)) return false;
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return !terms?.length || terms.some((t) => possiblyMatches(v.labels, t.matchExpressions ?? []));
}

function certainDaemonOverhead(pool: NodePool, input: SchedulingInput): Amounts {
  // Only DaemonSets with no node constraints that tolerate the pool's taints are certain to run on every node.
  const out: Amounts = new Map();
  for (const ds of input.daemonSets ?? []) {
    const s = ds.template.spec;
    if (s.nodeSelector || s.affinity?.nodeAffinity) continue;
    if (blockingTaint(pool.template.taints ?? [], s.tolerations ?? [])) continue;
    for (const [k, v] of podDemand({ metadata: { name: ds.name }, spec: s })) out.set(k, (out.get(k) ?? 0n) + v);
  }
  return out;
}

function minus(a: Amounts, b: Amounts): Amounts {
  const out = new Map(a);
  for (const [k, v] of b) out.set(k, (out.get(k) ?? 0n) - v);
  return out;
}

function poolAllows(pool: NodePool, labels: Readonly<Record<string, string>>): boolean {
  return (pool.template.requirements ?? []).every((r) => {
    const view = NodeLabels.exact(labels);
    return possiblyMatches(view, [r]);
  });
}

function poolVariants(pool: NodePool, types: readonly InstanceType[], input: SchedulingInput, out: Variant[]): void {
  const overhead = certainDaemonOverhead(pool, input);
  for (const it of types) {
    const base = {
      ...(it.labels ?? {}),
      ...(pool.template.labels ?? {}),
      [Labels.instanceType]: it.name,
      [Labels.nodePool]: pool.name,
    };
    for (const ct of ['on-demand', 'spot', 'reserved'] as const) {
      const offers = it.offerings.filter(
        (o) =>
          o.available &&
          o.capacityType === ct &&
          poolAllows(pool, { ...base, [Labels.zone]: o.zone, [Labels.capacityType]: ct }),
      );
      if (offers.length === 0) continue;
      const values = new Map<string, Set<string | undefined>>(Object.entries(base).map(([k, v]) => [k, new Set([v])]));
      values.set(Labels.zone, new Set(offers.map((o) => o.zone)));
      values.set(Labels.capacityType, new Set([ct]));
      for (const r of it.requirements ?? []) if (r.operator === 'In') values.set(r.key, new Set(r.values ?? []));
      const zonePrices = new Map<string, number>();
      for (const o of offers)
        zonePrices.set(o.zone, Math.min(o.price, zonePrices.get(o.zone) ?? Number.POSITIVE_INFINITY));
      const alloc = it.allocatable ? amountsOf(it.allocatable) : minus(amountsOf(it.capacity), amountsOf(it.overhead));
      out.push({
        id: out.length,
        name: `${pool.name}/${it.name}/${ct}`,
        pool: pool.name,
        price: Math.min(...offers.map((o) => o.price)),
        capacity: minus(alloc, overhead),
        limitCapacity: amountsOf(it.capacity),
        zonePrices,
        existing: false,
        labels: new NodeLabels(values),
        taints: pool.template.taints ?? [],
      });
    }
  }
}

function existingVariant(n: ExistingNode, id: number): Variant {
  const free = amountsOf(n.allocatable);
  for (const p of n.pods ?? []) for (const [k, v] of podDemand(p)) free.set(k, (free.get(k) ?? 0n) - v);
  // A node not yet initialized may lose any taint (S1); assuming it loses all keeps the relaxation valid.
  const taints = (n.initialized ?? true) ? (n.taints ?? []) : [];
  const zone = n.labels[Labels.zone];
  const zonePrices = new Map(zone === undefined ? [] : [[zone, 0]]);
  return {
    id,
    name: `node/${n.name}`,
    pool: undefined,
    price: 0,
    capacity: free,
    limitCapacity: new Map(),
    zonePrices,
    existing: true,
    labels: NodeLabels.exact(n.labels, n.name),
    taints,
  };
}

/** Every variant of the input: new-node variants per NodePool, then existing nodes and in-flight NodeClaims. */
export function variants(input: SchedulingInput): Variant[] {
  const out: Variant[] = [];
  for (const pool of input.nodePools)
    poolVariants(pool, input.instanceTypesByNodePool?.[pool.name] ?? input.instanceTypes, input, out);
  for (const n of [...(input.nodes ?? []), ...(input.nodeClaims ?? [])])
    if (!n.markedForDeletion) out.push(existingVariant(n, out.length));
  return out;
}
