/**
 * Which nodes may be disrupted voluntarily, and why the others may not (Karpenter's NewCandidate): a managed,
 * initialized node of a known NodePool, not being deleted, without `karpenter.sh/do-not-disrupt` on it or on
 * any of its pods, and whose pods can all be evicted under their PodDisruptionBudgets.
 */
import type { Candidate, Blocked, DisruptionNode, DisruptionNodePool, DisruptionView } from '../types.js';
import { PdbLimits } from './pdb-limits.js';
import { evictionCost, lifetimeRemaining, podDoNotDisrupt, podKeyOf, reschedulablePods } from './pods.js';
import { EventReasons } from '../../event-reasons.js';

/** The outcome of checking every node. */
export interface CandidateSet {
  candidates: Candidate[];
  /** Nodes that would otherwise be candidates, with the cause (for `DisruptionBlocked`). */
  blocked: Blocked[];
}

function nodeBlock(n: DisruptionNode, pool: DisruptionNodePool | undefined): string | undefined {
  if (!pool) return `NodePool ${n.nodePool ?? ''} not found`;
  if (n.deleting) return 'node is deleting or marked for deletion';
  if (n.initialized === false) return 'node is not initialized';
  if (n.nominated) return 'node is nominated for a pending pod';
  if (n.doNotDisrupt) return 'disruption is blocked through the "karpenter.sh/do-not-disrupt" annotation';
  return undefined;
}

function podBlock(pods: Candidate['reschedulable'], pdbs: PdbLimits): string | undefined {
  for (const p of pods)
    if (podDoNotDisrupt(p)) return `pod has "karpenter.sh/do-not-disrupt" annotation (Pod=${podKeyOf(p)})`;
  for (const p of pods) {
    const why = pdbs.blocks(p);
    if (why) return why;
  }
  return undefined;
}

/** Checks every managed node of the view. */
export function candidatesOf(view: DisruptionView): CandidateSet {
  const pools = new Map(view.nodePools.map((p) => [p.name, p]));
  const pdbs = new PdbLimits(view.pdbs);
  const out: CandidateSet = { candidates: [], blocked: [] };
  for (const node of view.nodes) {
    if (!node.nodeClaim || !node.nodePool) continue;
    const pool = pools.get(node.nodePool);
    const reschedulable = reschedulablePods(node.pods);
    const why = nodeBlock(node, pool) ?? podBlock(reschedulable, pdbs);
    if (why || !pool) {
      // Nodes on their way in or out are not news (Karpenter skips them silently); everything else is reported.
      if (!node.deleting && node.initialized !== false)
        out.blocked.push({ node, message: why ?? 'no NodePool', reason: EventReasons.disruptionBlocked });
      continue;
    }
    const cost =
      reschedulable.reduce((s, p) => s + evictionCost(p), 0) *
      lifetimeRemaining({ now: view.now, createdAt: node.createdAt, expireAfterMs: node.expireAfterMs });
    out.candidates.push({ node, nodePool: pool, reschedulable, disruptionCost: cost });
  }
  return out;
}

/** Whether consolidateAfter has passed since the node's last pod event (never, for `consolidateAfter: Never`). */
export function consolidateAfterElapsed(c: Candidate, now: number): boolean {
  const after = c.nodePool.consolidateAfterMs;
  if (after === undefined) return false;
  return now >= (c.node.lastPodEventTime ?? 0) + after;
}

/** Candidates cheapest to disrupt first; ties broken by name so decisions are deterministic. */
export function byDisruptionCost(a: Candidate, b: Candidate): number {
  return a.disruptionCost - b.disruptionCost || (a.node.name < b.node.name ? -1 : a.node.name > b.node.name ? 1 : 0);
}
