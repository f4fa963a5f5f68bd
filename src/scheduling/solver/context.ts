/**
 * Everything a solve prepares before placing pods: instance types, NodePool templates, existing bins, domains,
 * pod infos and topology.
 */
import { Labels } from '../../api/index.js';
import { prepareInstanceType, type InstanceTypeInfo } from '../instance-types.js';
import type { DaemonSet, ExistingNode, InstanceType, Pod, SchedulingInput } from '../model.js';
import { newPodInfo, type PodInfo } from '../pod-info.js';
import { Requirements } from '../requirements/requirements.js';
import { podRequests } from '../resources/pod-requests.js';
import { addInto, type Resources } from '../resources/resources.js';
import { untoleratedTaint } from '../taints.js';
import type { SolveCache } from '../solve-cache.js';
import { Domains } from '../topology/domains.js';
import { Topology } from '../topology/topology.js';
import { podTopologyKeys } from '../topology/terms.js';
import { ExistingBin, nodeFacts } from './existing-bin.js';
import { newTemplate, type Template } from './template.js';

/** The prepared state of one solve. */
export interface SolveContext {
  input: SchedulingInput;
  templates: Template[];
  existing: ExistingBin[];
  pods: PodInfo[];
  topology: Topology;
  domains: Domains;
  /** Memos shared with the other solves of the caller. */
  cache: SolveCache;
}

/** One shared empty list, so inputs without DaemonSets share their prepared templates. */
const noDaemonSets: readonly DaemonSet[] = Object.freeze([]);

/** Prepares instance types once per object (repeated solves, e.g. disruption, reuse them; whole lists too). */
export function prepareAll(types: readonly InstanceType[], cache: SolveCache): InstanceTypeInfo[] {
  const cached = cache.instanceTypeLists.get(types);
  if (cached && cached.length === types.length) return cached.list;
  const list = prepareEach(types, cache);
  cache.instanceTypeLists.set(types, { length: types.length, list });
  return list;
}

/**
 * `prepareInstanceType`, once per type object and cache: solves, disruption's pricing and its resource simulator
 * share the prepared form (undefined when the type has no available offering).
 */
export function preparedInstanceType(t: InstanceType, cache: SolveCache): InstanceTypeInfo | undefined {
  let p = cache.instanceTypes.get(t);
  if (p === undefined) {
    p = prepareInstanceType(t, cache.requirements) ?? null;
    cache.instanceTypes.set(t, p);
  }
  return p ?? undefined;
}

function prepareEach(types: readonly InstanceType[], cache: SolveCache): InstanceTypeInfo[] {
  const out: InstanceTypeInfo[] = [];
  for (const t of types) {
    const p = preparedInstanceType(t, cache);
    if (p) out.push(p);
  }
  return out;
}

function daemonsFor(
  node: ExistingNode,
  daemonSets: readonly DaemonSet[],
  bin: { taints: ExistingBin['taints'] },
  cache: SolveCache,
): Resources {
  // Only nodes still starting get their missing DaemonSet pods charged (Karpenter does the same for in-flight nodes).
  const out: Resources = {};
  if (node.initialized ?? true) return out;
  const labels = Requirements.fromLabels(node.labels);
  for (const ds of daemonSets) {
    const present = (node.pods ?? []).some((p) =>
      p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet' && o.name === ds.name),
    );
    if (present) continue;
    const pod: Pod = { metadata: { name: ds.name, ...ds.template.metadata }, spec: ds.template.spec };
    const info = newPodInfo(pod, { index: 0, cache });
    if (untoleratedTaint(bin.taints, info.tolerations) || labels.compatible(info.requirements, new Set())) continue;
    addInto(out, podRequests(pod, cache));
  }
  return out;
}

function existingBins(input: SchedulingInput, cache: SolveCache): ExistingBin[] {
  const daemonSets = input.daemonSets ?? [];
  const make = (n: ExistingNode, kind: 'node' | 'nodeclaim'): ExistingBin => {
    const bin = new ExistingBin(n, kind, { volumes: input.volumes, cache });
    if (n.initialized === false) bin.charge(daemonsFor(n, daemonSets, bin, cache));
    return bin;
  };
  const bins = [
    ...(input.nodes ?? []).map((n) => make(n, 'node')),
    ...(input.nodeClaims ?? []).map((n) => make(n, 'nodeclaim')),
  ];
  // Callers simulating many removals pass nodes in this order already, and the sort then only checks it.
  return bins.sort((a, b) => binOrder(a.node, b.node));
}

/** The order the solver tries existing bins in: initialized first, then by name (Karpenter's, so consolidation prefers settled nodes). */
export function binOrder(a: ExistingNode, b: ExistingNode): number {
  const ia = a.initialized ?? true;
  const ib = b.initialized ?? true;
  if (ia !== ib) return ia ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** `usage` less the capacity of `removed` nodes (a fresh map; callers keeping one usage across simulations). */
export function usageWithout(
  usage: ReadonlyMap<string, Resources>,
  removed: readonly ExistingNode[],
  volumes: SchedulingInput['volumes'],
  cache?: SolveCache,
): Map<string, Resources> {
  const out = new Map([...usage].map(([k, v]) => [k, { ...v }]));
  for (const n of removed) {
    const u = out.get(n.labels[Labels.nodePool] ?? '');
    if (!u) continue;
    const cap = nodeFacts(n, volumes, cache).capacity;
    for (const k in cap) u[k] = (u[k] ?? 0) - (cap[k] ?? 0);
  }
  return out;
}

/** Capacity of existing nodes and in-flight NodeClaims per NodePool (what counts against its limits). */
export function poolUsage(input: SchedulingInput, cache?: SolveCache): Map<string, Resources> {
  const usage = new Map<string, Resources>();
  const charge = (pool: string | undefined, n: ExistingNode): void => {
    if (!pool) return;
    const u = usage.get(pool) ?? {};
    addInto(u, nodeFacts(n, input.volumes, cache).capacity);
    usage.set(pool, u);
  };
  for (const n of input.nodes ?? []) charge(n.labels[Labels.nodePool], n);
  for (const n of input.nodeClaims ?? []) charge(n.nodePool, n);
  return usage;
}

function topologyKeys(pods: readonly Pod[], existing: readonly ExistingBin[]): Set<string> {
  const keys = new Set<string>();
  for (const p of pods) for (const k of podTopologyKeys(p)) keys.add(k);
  for (const b of existing) for (const k of b.facts.topologyKeys) keys.add(k);
  return keys;
}

/**
 * The domains of `key` a NodePool can provide (its requirements' values, then its instance types' values it
 * allows), in discovery order; cached per prepared template, as repeated solves (disruption) reuse those.
 */
function templateDomains(t: Template, key: string, cache: SolveCache): string[] {
  let byKey = cache.templateDomains.get(t.instanceTypes);
  if (!byKey) {
    byKey = new Map();
    cache.templateDomains.set(t.instanceTypes, byKey);
  }
  const cached = byKey.get(key);
  if (cached) return cached;
  const out = new Set<string>();
  const allowed = t.requirements.get(key);
  if (allowed && !allowed.complement) for (const v of allowed.values) out.add(v);
  for (const it of t.instanceTypes) {
    const r = it.requirements.get(key);
    if (r && !r.complement) for (const v of r.values) if (!allowed || allowed.has(v)) out.add(v);
  }
  const list = [...out];
  byKey.set(key, list);
  return list;
}

function discoverDomains(
  templates: readonly Template[],
  existing: readonly ExistingBin[],
  keys: ReadonlySet<string>,
  cache: SolveCache,
): Domains {
  const domains = new Domains();
  for (const key of keys) {
    for (const t of templates) for (const v of templateDomains(t, key, cache)) domains.register(key, v, t);
    for (const b of existing) {
      const v = b.node.labels[key];
      if (v !== undefined) domains.register(key, v, b);
    }
  }
  return domains;
}

/** Prepares a solve; `usage` may be given when the caller keeps it (RemovalSimulator). */
export function newSolveContext(
  input: SchedulingInput,
  usage: Map<string, Resources> | undefined,
  cache: SolveCache,
): SolveContext {
  usage ??= poolUsage(input, cache);
  const daemonSets = input.daemonSets ?? noDaemonSets;
  const templates = input.nodePools
    .map((np) => {
      const source = input.instanceTypesByNodePool?.[np.name] ?? input.instanceTypes;
      return newTemplate(np, {
        instanceTypes: prepareAll(source, cache),
        source,
        daemonSets,
        usage: usage.get(np.name) ?? {},
        cache,
      });
    })
    .sort((a, b) => b.weight - a.weight || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const existing = existingBins(input, cache);
  const pods = input.pods.map((pod, index) =>
    newPodInfo(pod, { index, volumes: input.volumes, cache, preferencePolicy: input.preferencePolicy }),
  );
  const counted = existing.map((b) => ({
    labels: b.node.labels,
    taints: b.taints,
    pods: b.node.pods ?? [],
    antiAffinityPods: b.facts.antiAffinityPods,
  }));
  const keys = topologyKeys(input.pods, existing);
  const domains = discoverDomains(templates, existing, keys, cache);
  const topology = new Topology(domains, { namespaces: input.namespaces ?? {}, nodes: counted, pending: pods, cache });
  return { input, templates, existing, pods, topology, domains, cache };
}
