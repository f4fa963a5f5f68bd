/** One scheduling cycle for one pod, pure: filter every node, score the feasible ones, pick the best. */
import type { Pod } from '../../kube/index.js';
import type { Rng } from '../world/random.js';
import { infeasibility, verdictsAt, type FeasibilityContext, type NodeVerdict } from './feasibility.js';
import type { Diagnosis } from './fit-error.js';
import type { NodeInfo } from './node-info.js';
import { nodeScorer, zoneCountsIn } from './scoring.js';
import { volumeInfo, volumePreFilter, type VolumeObjects } from './volume-filter.js';

/** The outcome of a cycle: a node (and how many nodes were filtered to find it), or why none fits. */
export type Decision =
  | { kind: 'bind'; node: string; examined: number }
  | { kind: 'unschedulable'; diagnosis: Diagnosis; verdicts: ReadonlyMap<string, NodeVerdict> };

/** Everything a cycle reads. */
export interface CycleInput {
  pod: Pod;
  nodes: readonly NodeInfo[];
  volumes: VolumeObjects;
  /** Breaks ties between equal scores, as kube-scheduler picks at random among them. */
  rng: Rng;
  /** Where filtering starts in `nodes` (kube-scheduler's nextStartNodeIndex: each cycle goes on where the last stopped). */
  start?: number;
  /** Whether any node runs a pod with required anti-affinity, when the caller keeps count. */
  antiAffinityAnywhere?: boolean;
  /** Pods of a controller owner per zone, when the caller keeps count (else counted from `nodes`). */
  zoneCounts?: (owner: string) => ReadonlyMap<string, number>;
}

/**
 * kube-scheduler's numFeasibleNodesToFind with the default adaptive percentageOfNodesToScore: filtering stops once
 * this many feasible nodes are found (every node below 100 nodes; 50% less 1% per 125 nodes, at least 5%, at least 100).
 */
export function feasibleNodesToFind(all: number): number {
  if (all < 100) return all;
  const percentage = Math.max(5, 50 - Math.floor(all / 125));
  return Math.max(100, Math.floor((all * percentage) / 100));
}

/** What filtering found: the feasible nodes, and every node examined with its verdict (in the order examined). */
interface Filtered {
  feasible: NodeInfo[];
  examinedNodes: NodeInfo[];
  examinedVerdicts: NodeVerdict[];
}

/** Filters nodes from `start` round the list, `want` at a time, until `want` feasible ones are found. */
function filterNodes(input: CycleInput, ctx: FeasibilityContext, want: number): Filtered {
  const { pod, nodes } = input;
  const out: Filtered = { feasible: [], examinedNodes: [], examinedVerdicts: [] };
  const start = nodes.length === 0 ? 0 : (input.start ?? 0) % nodes.length;
  let examined = 0;
  while (examined < nodes.length && out.feasible.length < want) {
    const positions: number[] = [];
    for (let i = 0; i < want && examined + i < nodes.length; i++) positions.push((start + examined + i) % nodes.length);
    examined += positions.length;
    const verdicts = verdictsAt(pod, nodes, ctx, positions);
    for (let k = 0; k < positions.length; k++) {
      const n = nodes[positions[k] as number] as NodeInfo;
      const v = verdicts[k] as NodeVerdict;
      out.examinedNodes.push(n);
      out.examinedVerdicts.push(v);
      if (v.reasons.length === 0) out.feasible.push(n);
    }
  }
  return out;
}

/** The name of the best scored node, ties broken at random (reservoir sampling); undefined when there is none. */
function bestScored(nodes: readonly NodeInfo[], scoreNode: (n: NodeInfo) => number, rng: Rng): string | undefined {
  let best: { name: string; score: number; ties: number } | undefined;
  for (const n of nodes) {
    const score = scoreNode(n);
    if (!best || score > best.score) best = { name: n.name, score, ties: 1 };
    else if (score === best.score) {
      best.ties++;
      if (rng.next() * best.ties < 1) best.name = n.name;
    }
  }
  return best?.name;
}

/**
 * Decides where `pod` goes. A feasible nominated node is taken first, as kube-scheduler evaluates it first; then
 * nodes are filtered until enough feasible ones are found, and the best scored of those is taken.
 */
export function decide(input: CycleInput): Decision {
  const { pod, nodes, volumes } = input;
  const info = volumeInfo(volumes);
  const preFilter = volumePreFilter(pod, info);
  if (preFilter)
    return {
      kind: 'unschedulable',
      diagnosis: { nodeCount: nodes.length, reasons: new Map(), preFilter },
      verdicts: new Map(),
    };
  const ctx = { volumes: info, csiNodes: volumes.csiNodes, antiAffinityAnywhere: input.antiAffinityAnywhere };
  const nominated = pod.status?.nominatedNodeName;
  const nominatedInfo = nominated ? nodes.find((n) => n.name === nominated) : undefined;
  if (nominatedInfo && infeasibility(pod, nodes, ctx, [nominatedInfo]).get(nominatedInfo.name)?.reasons.length === 0)
    return { kind: 'bind', node: nominatedInfo.name, examined: 0 };
  const { feasible, examinedNodes, examinedVerdicts } = filterNodes(input, ctx, feasibleNodesToFind(nodes.length));
  const best = bestScored(
    feasible,
    nodeScorer(pod, feasible, input.zoneCounts ?? ((owner) => zoneCountsIn(nodes, owner))),
    input.rng,
  );
  if (best) return { kind: 'bind', node: best, examined: examinedNodes.length };
  // Only a pod no node takes needs the verdicts by name (its message and preemption).
  const verdicts = new Map<string, NodeVerdict>();
  const reasons = new Map<string, string[]>();
  examinedNodes.forEach((n, k) => {
    const v = examinedVerdicts[k] as NodeVerdict;
    verdicts.set(n.name, v);
    if (v.reasons.length > 0) reasons.set(n.name, v.reasons);
  });
  return { kind: 'unschedulable', diagnosis: { nodeCount: nodes.length, reasons }, verdicts };
}
