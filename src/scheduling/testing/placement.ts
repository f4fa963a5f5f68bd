/**
 * Test helpers that read a SchedulingResult the way a person would: where did each pod land (node name or new
 * NodeClaim index), and what labels will that node carry (zone and the like from the NodeClaim's requirements).
 */
import type { NewNodeClaim, SchedulingResult } from '../model.js';

/** Where one pod landed. */
export interface Landing {
  /** `node/<name>`, `nodeclaim/<name>` or `new/<index>`. */
  where: string;
  /** Labels the node carries (single-valued requirements of a new NodeClaim). */
  labels: Record<string, string>;
  claim?: NewNodeClaim;
}

/** The single value a new NodeClaim's requirements allow for `key`, if settled. */
export function settled(claim: NewNodeClaim, key: string): string | undefined {
  const own = claim.labels[key];
  if (own !== undefined) return own;
  const r = claim.requirements.filter((q) => q.key === key && q.operator === 'In');
  return r.length === 1 && r[0]?.values?.length === 1 ? r[0].values[0] : undefined;
}

/** Pod key -> landing, for every placed pod. */
export function landings(
  result: SchedulingResult,
  nodeLabels: Record<string, Record<string, string>> = {},
): Map<string, Landing> {
  const out = new Map<string, Landing>();
  for (const e of result.existingNodes) out.set(e.pod, { where: `node/${e.node}`, labels: nodeLabels[e.node] ?? {} });
  for (const e of result.nominated)
    out.set(e.pod, { where: `nodeclaim/${e.nodeClaim}`, labels: nodeLabels[e.nodeClaim] ?? {} });
  result.newNodeClaims.forEach((claim, i) => {
    const labels: Record<string, string> = { ...claim.labels };
    for (const r of claim.requirements) {
      const v = settled(claim, r.key);
      if (v !== undefined) labels[r.key] = v;
    }
    for (const pod of claim.pods) out.set(pod, { where: `new/${i}`, labels, claim });
  });
  return out;
}

/** Counts of placed pods per value of `key` among `pods`. */
export function countBy(
  result: SchedulingResult,
  pods: readonly string[],
  key: string,
  nodeLabels?: Record<string, Record<string, string>>,
): Record<string, number> {
  const l = landings(result, nodeLabels);
  const out: Record<string, number> = {};
  for (const p of pods) {
    const v = l.get(p)?.labels[key];
    if (v !== undefined) out[v] = (out[v] ?? 0) + 1;
  }
  return out;
}

/** Sorted counts (for skew assertions that do not care which domain got what). */
export function sortedCounts(counts: Record<string, number>): number[] {
  return Object.values(counts).sort((a, b) => a - b);
}
