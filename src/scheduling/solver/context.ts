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
}

const prepared = new WeakMap<InstanceType, InstanceTypeInfo | null>();
/** One shared empty list, so inputs without DaemonSets share their prepared templates. */
const noDaemonSets: DaemonSet[] = [];

const preparedLists = new WeakMap<readonly InstanceType[], { length: number; list: InstanceTypeInfo[] }>();

/** Prepares instance types once per object (repeated solves, e.g. disruption, reuse them; whole lists too). */
export function prepareAll(types: readonly InstanceType[]): InstanceTypeInfo[] {
  const cached = preparedLists.get(types);
  if (cached && cached.length === types.length) return cached.list;
  const list = prepareEach(types);
  preparedLists.set(types, { length: types.length, list });
  return list;
}

/**
 * `prepareInstanceType`, once per type object: solves, disruption's pricing and its resource simulator share the
 * prepared form (undefined when the type has no available offering).
 */
export function preparedInstanceType(t: InstanceType): InstanceTypeInfo | undefined {
  let p = prepared.get(t);
  if (p === undefined) {
    p = prepareInstanceType(t) ?? null;
    prepared.set(t, p);
  }
  return p ?? undefined;
}

function prepareEach(types: readonly InstanceType[]): InstanceTypeInfo[] {
  const out: InstanceTypeInfo[] = [];
  for (const t of types) {
    const p = preparedInstanceType(t);
    if (p) out.push(p);
  }
  return out;
}

function daemonsFor(node: ExistingNode, daemonSets: readonly DaemonSet[], bin: { taints: ExistingBin['taints'] }): Resources {
  // Only nodes still starting get their missing DaemonSet pods charged (Karpenter does the same for in-flight nodes).
  const out: Resources = {};
  if (node.initialized ?? true) return out;
  const labels = Requirements.fromLabels(node.labels);
  for (const ds of daemonSets) {
    const present = (node.pods ?? []).some((p) => p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet' && o.name === ds.name));
    if (present) continue;
    const pod: Pod = { metadata: { name: ds.name, ...ds.template.metadata }, spec: ds.template.spec };
    const info = newPodInfo(pod, { index: 0 });
    if (untoleratedTaint(bin.taints, info.tolerations) || labels.compatible(info.requirements, new Set())) continue;
    addInto(out, podRequests(pod));
  }
  return out;
}

function existingBins(input: SchedulingInput): ExistingBin[] {
  const daemonSets = input.daemonSets ?? [];
  const make = (n: ExistingNode, kind: 'node' | 'nodeclaim'): ExistingBin => {
    const bin = new ExistingBin(n, kind, { volumes: input.volumes });
    if (n.initialized === false) bin.charge(daemonsFor(n, daemonSets, bin));
    return bin;
  };
  const bins = [...(input.nodes ?? []).map((n) => make(n, 'node')), ...(input.nodeClaims ?? []).map((n) => make(n, 'nodeclaim'))];
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
export function usageWithout(usage: ReadonlyMap<string, Resources>, removed: readonly ExistingNode[], volumes: SchedulingInput['volumes']): Map<string, Resources> {
  const out = new Map([...usage].map(([k, v]) => [k, { ...v }]));
  for (const n of removed) {
    const u = out.get(n.labels[Labels.nodePool] ?? '');
    if (!u) continue;
    const cap = nodeFacts(n, volumes).capacity;
    for (const k in cap) u[k] = (u[k] ?? 0) - (cap[k] ?? 0);
  }
  return out;
}

/** Capacity of existing nodes and in-flight NodeClaims per NodePool (what counts against its limits). */
export function poolUsage(input: SchedulingInput): Map<string, Resources> {
  const usage = new Map<string, Resources>();
  const charge = (pool: string | undefined, n: ExistingNode): void => {
    if (!pool) return;
    const u = usage.get(pool) ?? {};
    addInto(u, nodeFacts(n, input.volumes).capacity);
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

const domainsByTemplate = new WeakMap<InstanceTypeInfo[], Map<string, string[]>>();

/**
 * The domains of `key` a NodePool can provide (its requirements' values, then its instance types' values it
 * allows), in discovery order; cached per prepared template, as repeated solves (disruption) reuse those.
 */
function templateDomains(t: Template, key: string): string[] {
  let byKey = domainsByTemplate.get(t.instanceTypes);
  if (!byKey) {
    byKey = new Map();
    domainsByTemplate.set(t.instanceTypes, byKey);
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

function discoverDomains(templates: readonly Template[], existing: readonly ExistingBin[], keys: ReadonlySet<string>): Domains {
  const domains = new Domains();
  for (const key of keys) {
    for (const t of templates) for (const v of templateDomains(t, key)) domains.register(key, v, t);
    for (const b of existing) {
      const v = b.node.labels[key];
      if (v !== undefined) domains.register(key, v, b);
    }
  }
  return domains;
}

/** Prepares a solve; `usage` may be given when the caller keeps it (RemovalSimulator). */
export function newSolveContext(input: SchedulingInput, usage: Map<string, Resources> = poolUsage(input)): SolveContext {
  const daemonSets = input.daemonSets ?? noDaemonSets;
  const templates = input.nodePools
    .map((np) => {
      const source = input.instanceTypesByNodePool?.[np.name] ?? input.instanceTypes;
      return newTemplate(np, { instanceTypes: prepareAll(source), source, daemonSets, usage: usage.get(np.name) ?? {} });
    })
    .sort((a, b) => b.weight - a.weight || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const existing = existingBins(input);
  const pods = input.pods.map((pod, index) => newPodInfo(pod, { index, volumes: input.volumes }));
  const counted = existing.map((b) => ({ labels: b.node.labels, taints: b.taints, pods: b.node.pods ?? [], antiAffinityPods: b.facts.antiAffinityPods }));
  const keys = topologyKeys(input.pods, existing);
  const domains = discoverDomains(templates, existing, keys);
  const topology = new Topology(domains, { namespaces: input.namespaces ?? {}, nodes: counted, pending: pods });
  return { input, templates, existing, pods, topology, domains };
}
