/**
 * Node scoring, close enough to the default profile to spread: least allocated and balanced cpu/memory,
 * spreading pods of the same owner over nodes and zones (the default topology spread), PreferNoSchedule taints
 * and preferred node affinity. Scores are 0–100 per plugin, weighted as in the default profile.
 */
import { Labels } from '../../api/index.js';
import type { Pod } from '../../kube/index.js';
import { Requirements } from '../../scheduling/index.js';
import { requestsOf, type NodeInfo } from './node-info.js';
import { asSchedPod } from './sched-pod.js';

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

function ownerUid(p: Pod): string | undefined {
  return p.metadata.ownerReferences?.find((r) => r.controller)?.uid;
}

function spread(pod: Pod, n: NodeInfo, all: readonly NodeInfo[]): number {
  const owner = ownerUid(pod);
  if (!owner) return 100;
  const count = (info: NodeInfo): number => info.pods.filter((p) => ownerUid(p) === owner).length;
  const onNode = count(n);
  const maxNode = Math.max(1, ...all.map(count));
  const zone = n.labels[Labels.zone];
  const zoneCount = (z: string | undefined): number => all.filter((i) => i.labels[Labels.zone] === z).reduce((s, i) => s + count(i), 0);
  const zones = [...new Set(all.map((i) => i.labels[Labels.zone]))];
  const maxZone = Math.max(1, ...zones.map(zoneCount));
  // Zone spread weighs more than node spread, as in the system default constraints.
  return 100 - (onNode / maxNode) * 33 - (zoneCount(zone) / maxZone) * 67;
}

function preferNoSchedule(pod: Pod, n: NodeInfo): number {
  const untolerated = (n.node.spec?.taints ?? []).filter(
    (t) => t.effect === 'PreferNoSchedule' && !(pod.spec.tolerations ?? []).some((tol) => !tol.key || tol.key === t.key),
  );
  return untolerated.length === 0 ? 100 : 0;
}

function preferredAffinity(pod: Pod, n: NodeInfo): number {
  const prefs = asSchedPod(pod).spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  const total = prefs.reduce((s, p) => s + p.weight, 0);
  if (total === 0) return 100;
  const met = prefs.filter((p) => Requirements.fromSelector(p.preference.matchExpressions).matchesLabels(n.labels)).reduce((s, p) => s + p.weight, 0);
  return (met / total) * 100;
}

/** The weighted score of placing `pod` on `n` among the feasible nodes `all`. */
export function scoreNode(pod: Pod, n: NodeInfo, all: readonly NodeInfo[]): number {
  return leastAllocated(pod, n) + 2 * spread(pod, n, all) + 3 * preferNoSchedule(pod, n) + 2 * preferredAffinity(pod, n);
}
