/**
 * A NodePool prepared for the solver (Karpenter's NodeClaimTemplate): its requirements, taints, the instance
 * types compatible with it cheapest first, the DaemonSet overhead on its new nodes, and its remaining limits.
 */
import { Labels, type Taint } from '../../api/index.js';
import { cheapestOffering, type InstanceTypeInfo } from '../instance-types.js';
import type { DaemonSet, NodePool } from '../model.js';
import { newPodInfo } from '../pod-info.js';
import type { SolveCache } from '../solve-cache.js';
import { Requirements } from '../requirements/requirements.js';
import { WellKnownLabels } from '../requirements/well-known.js';
import { addInto, fromLimitList, type Resources } from '../resources/resources.js';
import { untoleratedTaint } from '../taints.js';

/** A NodePool ready for the solver. */
export interface Template {
  nodePool: NodePool;
  name: string;
  weight: number;
  requirements: Requirements;
  labels: Record<string, string>;
  taints: Taint[];
  startupTaints: Taint[];
  instanceTypes: InstanceTypeInfo[];
  daemonOverhead: Resources;
  /** Limits minus what existing, in-flight and planned NodeClaims of this pool may use; undefined when unlimited. */
  remaining: Resources | undefined;
}

/**
 * Requests of the DaemonSet pods that would run on a new node of this template (Karpenter's getDaemonOverhead),
 * skipping DaemonSets that no instance type of the NodePool could host (e.g. an arm64-only DaemonSet on an
 * amd64-only NodePool), which Karpenter would still count.
 */
function daemonOverhead(
  t: Pick<Template, 'requirements' | 'taints' | 'instanceTypes'>,
  daemonSets: readonly DaemonSet[],
  cache: SolveCache,
): Resources {
  const out: Resources = {};
  daemonSets.forEach((ds, index) => {
    const pod = newPodInfo(
      { metadata: { name: ds.name, namespace: ds.namespace, ...ds.template.metadata }, spec: ds.template.spec },
      { index, cache },
    );
    if (untoleratedTaint(t.taints, pod.tolerations)) return;
    if (t.requirements.compatible(pod.requirements, WellKnownLabels)) return;
    if (!t.instanceTypes.some((it) => it.requirements.intersects(pod.requirements) === undefined)) return;
    addInto(out, pod.requests);
  });
  return out;
}

/**
 * The instance type as this NodePool sees it: priced at the cheapest offering the NodePool allows (an on-demand
 * NodePool must not rank types by their spot price), undefined when it allows none.
 */
function pricedFor(it: InstanceTypeInfo, requirements: Requirements): InstanceTypeInfo | undefined {
  const o = cheapestOffering(it, requirements);
  if (!o) return undefined;
  return o.price === it.price ? it : { ...it, price: o.price };
}

/** A NodePool's template without its remaining limits (those depend on the cluster's usage). */
export type PreparedTemplate = Omit<Template, 'remaining'>;

function prepare(
  np: NodePool,
  opts: { instanceTypes: readonly InstanceTypeInfo[]; daemonSets: readonly DaemonSet[]; cache: SolveCache },
): PreparedTemplate {
  const labels = { ...np.template.labels, [Labels.nodePool]: np.name };
  const table = opts.cache.requirements;
  const requirements = Requirements.fromSelector(np.template.requirements, table).addAll(
    Requirements.fromLabels(labels, table),
  );
  const taints = np.template.taints ?? [];
  const instanceTypes = opts.instanceTypes
    .filter((it) => it.requirements.intersects(requirements) === undefined)
    .flatMap((it) => pricedFor(it, requirements) ?? [])
    .sort((a, b) => a.price - b.price || (a.name < b.name ? -1 : 1));
  return {
    nodePool: np,
    name: np.name,
    weight: np.weight ?? 0,
    requirements,
    labels,
    taints,
    startupTaints: np.template.startupTaints ?? [],
    instanceTypes,
    daemonOverhead: daemonOverhead({ requirements, taints, instanceTypes }, opts.daemonSets, opts.cache),
  };
}

/**
 * Prepares a NodePool with the instance types it may launch. `source` identifies where the instance types came
 * from (the input's array): repeated solves over the same NodePool, source and DaemonSets (disruption's removal
 * simulations) reuse the preparation — filtering and pricing hundreds of types per solve would dominate them.
 */
export function newTemplate(
  np: NodePool,
  opts: {
    instanceTypes: readonly InstanceTypeInfo[];
    source?: object;
    daemonSets: readonly DaemonSet[];
    usage: Resources;
    cache: SolveCache;
  },
): Template {
  const key = opts.source ?? opts.instanceTypes;
  let entry = opts.cache.templates.get(np);
  if (!entry || entry.types !== key || entry.daemonSets !== opts.daemonSets) {
    entry = { types: key, daemonSets: opts.daemonSets, prepared: prepare(np, opts) };
    opts.cache.templates.set(np, entry);
  }
  let remaining: Resources | undefined;
  if (np.limits) {
    remaining = fromLimitList(np.limits);
    for (const k of Object.keys(remaining)) remaining[k] = (remaining[k] ?? 0) - (opts.usage[k] ?? 0);
  }
  return { ...entry.prepared, remaining };
}
