/** One scheduling cycle for one pod, pure: filter every node, score the feasible ones, pick the best. */
import type { Pod } from '../../kube/index.js';
import type { Rng } from '../world/random.js';
import { infeasibility, type NodeVerdict } from './feasibility.js';
import type { Diagnosis } from './fit-error.js';
import type { NodeInfo } from './node-info.js';
import { nodeScorer } from './scoring.js';
import { volumeInfo, volumePreFilter, type VolumeObjects } from './volume-filter.js';

/** The outcome of a cycle: a node, or why none fits. */
export type Decision = { kind: 'bind'; node: string } | { kind: 'unschedulable'; diagnosis: Diagnosis; verdicts: ReadonlyMap<string, NodeVerdict> };

/** Everything a cycle reads. */
export interface CycleInput {
  pod: Pod;
  nodes: readonly NodeInfo[];
  volumes: VolumeObjects;
  /** Breaks ties between equal scores, as kube-scheduler picks at random among them. */
  rng: Rng;
}

/** Decides where `pod` goes. A feasible nominated node is taken first, as kube-scheduler evaluates it first. */
export function decide(input: CycleInput): Decision {
  const { pod, nodes, volumes } = input;
  const info = volumeInfo(volumes);
  const preFilter = volumePreFilter(pod, info);
  if (preFilter) return { kind: 'unschedulable', diagnosis: { nodeCount: nodes.length, reasons: new Map(), preFilter }, verdicts: new Map() };
  const verdicts = infeasibility(pod, nodes, { volumes: info, csiNodes: volumes.csiNodes });
  const nominated = pod.status?.nominatedNodeName;
  if (nominated && verdicts.get(nominated)?.reasons.length === 0) return { kind: 'bind', node: nominated };
  const reasons = new Map<string, string[]>();
  let best: { name: string; score: number; ties: number } | undefined;
  const scoreNode = nodeScorer(pod, nodes);
  for (const n of nodes) {
    const why = verdicts.get(n.name)?.reasons ?? [];
    if (why.length > 0) {
      reasons.set(n.name, why);
      continue;
    }
    const score = scoreNode(n);
    if (!best || score > best.score) best = { name: n.name, score, ties: 1 };
    else if (score === best.score) {
      // Reservoir sampling over equal scores.
      best.ties++;
      if (input.rng.next() * best.ties < 1) best.name = n.name;
    }
  }
  if (best) return { kind: 'bind', node: best.name };
  return { kind: 'unschedulable', diagnosis: { nodeCount: nodes.length, reasons }, verdicts };
}
