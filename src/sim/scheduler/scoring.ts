/**
 * Node scoring, close enough to the default profile to spread: least allocated and balanced cpu/memory,
 * spreading pods of the same owner over nodes and zones (the default topology spread), PreferNoSchedule taints
 * and preferred node affinity. Scores are 0–100 per plugin, weighted as in the default profile.
 */
import { Labels } from '../../api/index.js';
import type { Pod } from '../../kube/index.js';
import { Requirements } from '../../scheduling/index.js';
import { requestsOf, type NodeInfo } from './node-info.js';
import { asSchedPod, ownerUid } from './sched-pod.js';

function leastAllocated(pod: Pod, n: NodeInfo): number {
  const req = requestsOf(pod);
  let sum = 0;
  for (const r of ['cpu', 'memory']) {
    const alloc = n.allocatable[r] ?? 0;
    if (alloc <= 0) continue;
    sum += Math.max(0, alloc - (n.requested[r] ?? 0) - (req[r] ?? 0)) / alloc;
  }
  return (sum / 2) * 100;
}

// Counts of pods per controller owner on a NodeInfo; an unchanged node keeps its NodeInfo object across cycles.
const ownerCounts = new WeakMap<NodeInfo, Map<string, number>>();

function countsByOwner(info: NodeInfo): Map<string, number> {
  let m = ownerCounts.get(info);
  if (!m) {
    m = new Map();
    for (const p of info.pods) {
      const o = ownerUid(p);
      if (o !== undefined) m.set(o, (m.get(o) ?? 0) + 1);
    }
    ownerCounts.set(info, m);
  }
  return m;
}

/** Pods of a controller owner per zone among `nodes` (zone '' for nodes without a zone label). */
export function zoneCountsIn(nodes: readonly NodeInfo[], owner: string): Map<string, number> {
  const byZone = new Map<string, number>();
  for (const info of nodes) {
    const c = countsByOwner(info).get(owner) ?? 0;
    if (c === 0) continue;
    const z = info.labels[Labels.zone] ?? '';
    byZone.set(z, (byZone.get(z) ?? 0) + c);
  }
  return byZone;
}

/**
 * The spread score of each scored node: the owner's pods on the node against the most on any scored node (kube
 * normalises over the nodes it scores), and in the node's zone against the fullest zone of the cluster.
 */
function spreadScorer(
  pod: Pod,
  scored: readonly NodeInfo[],
  zoneCounts: (owner: string) => ReadonlyMap<string, number>,
): (n: NodeInfo) => number {
  const owner = ownerUid(pod);
  if (!owner) return () => 100;
  let maxNode = 1;
  for (const info of scored) maxNode = Math.max(maxNode, countsByOwner(info).get(owner) ?? 0);
  const byZone = zoneCounts(owner);
  const maxZone = Math.max(1, ...byZone.values());
  // Zone spread weighs more than node spread, as in the system default constraints.
  return (n) =>
    100 -
    ((countsByOwner(n).get(owner) ?? 0) / maxNode) * 33 -
    ((byZone.get(n.labels[Labels.zone] ?? '') ?? 0) / maxZone) * 67;
}

function preferNoSchedule(pod: Pod, n: NodeInfo): number {
  const untolerated = (n.node.spec?.taints ?? []).filter(
    (t) =>
      t.effect === 'PreferNoSchedule' && !(pod.spec.tolerations ?? []).some((tol) => !tol.key || tol.key === t.key),
  );
  return untolerated.length === 0 ? 100 : 0;
}

function preferredAffinity(pod: Pod, n: NodeInfo): number {
  const prefs = asSchedPod(pod).spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  const total = prefs.reduce((s, p) => s + p.weight, 0);
  if (total === 0) return 100;
  const met = prefs
    .filter((p) => Requirements.fromSelector(p.preference.matchExpressions).matchesLabels(n.labels))
    .reduce((s, p) => s + p.weight, 0);
  return (met / total) * 100;
}

/** The weighted score of placing `pod` on one of the `scored` nodes, with what spreading reads gathered once. */
export function nodeScorer(
  pod: Pod,
  scored: readonly NodeInfo[],
  zoneCounts: (owner: string) => ReadonlyMap<string, number>,
): (n: NodeInfo) => number {
  const spread = spreadScorer(pod, scored, zoneCounts);
  return (n) => leastAllocated(pod, n) + 2 * spread(n) + 3 * preferNoSchedule(pod, n) + 2 * preferredAffinity(pod, n);
}
