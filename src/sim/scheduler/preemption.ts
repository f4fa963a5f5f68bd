/**
 * kube-scheduler's DefaultPreemption PostFilter, pure: for a pod that fits nowhere, find the node where evicting
 * lower-priority pods makes it fit, evicting as few as possible (every victim is put back when the pod still fits
 * without evicting it, highest priority first, PodDisruptionBudget-protected ones before the others), and pick the
 * node as kube does: fewest budget violations, then the lowest highest victim priority, the lowest priority sum,
 * the fewest victims, the latest start of the highest-priority victims. The texts are kube-scheduler's.
 */
import type { Pod } from '../../kube/index.js';
import { compileSelector } from '../../api/index.js';
import type { PodDisruptionBudget } from '../world/resources.js';
import { infeasibility, type FeasibilityContext, type NodeVerdict } from './feasibility.js';
import { nodeInfo, type NodeInfo } from './node-info.js';

/** What the PostFilter reads. */
export interface PreemptionInput {
  pod: Pod;
  nodes: readonly NodeInfo[];
  verdicts: ReadonlyMap<string, NodeVerdict>;
  ctx: FeasibilityContext;
  budgets: readonly PodDisruptionBudget[];
}

/** The chosen node and the pods to evict there. */
export interface Candidate {
  node: string;
  victims: Pod[];
  budgetViolations: number;
}

/** The PostFilter's outcome: a candidate, or the "preemption: …" text of the FitError and whether to drop a nomination. */
export type PreemptionOutcome =
  { kind: 'preempt'; candidate: Candidate } | { kind: 'none'; message: string; clearNomination: boolean };

/** A pod's priority (resolved by the API server's Priority admission). */
export function priorityOf(pod: Pod): number {
  return pod.spec.priority ?? 0;
}

function startOf(pod: Pod): number {
  return Date.parse(pod.status?.startTime ?? pod.metadata.creationTimestamp ?? '') || 0;
}

/** Why the pod may not preempt at all, if it may not (kube's PodEligibleToPreemptOthers). */
function ineligible(pod: Pod, nodes: readonly NodeInfo[]): string | undefined {
  if (pod.spec.preemptionPolicy === 'Never') return 'not eligible due to preemptionPolicy=Never.';
  const nominated = pod.status?.nominatedNodeName;
  const info = nominated ? nodes.find((n) => n.name === nominated) : undefined;
  const waiting = info?.pods.some((p) => p.metadata.deletionTimestamp && priorityOf(p) < priorityOf(pod));
  return waiting ? 'not eligible due to a terminating pod on the nominated node.' : undefined;
}

function fits(input: PreemptionInput, target: NodeInfo, kept: readonly Pod[]): boolean {
  const trial = nodeInfo(target.node, kept);
  const nodes = input.nodes.map((n) => (n === target ? trial : n));
  return infeasibility(input.pod, nodes, input.ctx, [trial]).get(trial.name)?.reasons.length === 0;
}

/** Splits victims into those whose eviction breaks a budget and the others, consuming the budgets' allowance. */
function byBudget(victims: readonly Pod[], budgets: readonly PodDisruptionBudget[]): { violating: Pod[]; fine: Pod[] } {
  const allowed = new Map(budgets.map((b) => [b, b.status?.disruptionsAllowed ?? 0]));
  const violating: Pod[] = [];
  const fine: Pod[] = [];
  for (const v of victims) {
    const matching = budgets.filter(
      (b) => b.metadata.namespace === v.metadata.namespace && compileSelector(b.spec.selector)(v.metadata.labels),
    );
    let breaks = false;
    for (const b of matching) {
      const left = (allowed.get(b) ?? 0) - 1;
      allowed.set(b, left);
      if (left < 0) breaks = true;
    }
    (breaks ? violating : fine).push(v);
  }
  return { violating, fine };
}

// The lowest priority among a NodeInfo's pods not being deleted (an unchanged node keeps its NodeInfo object), so a
// node with nothing to evict is passed over without walking its pods on every failed cycle.
const lowest = new WeakMap<NodeInfo, number>();

function lowestPriority(info: NodeInfo): number {
  let v = lowest.get(info);
  if (v === undefined) {
    v = Infinity;
    for (const p of info.pods) if (!p.metadata.deletionTimestamp) v = Math.min(v, priorityOf(p));
    lowest.set(info, v);
  }
  return v;
}

/** The fewest victims on `target` that make room, or undefined when evicting every lower-priority pod is not enough. */
function candidateOn(input: PreemptionInput, target: NodeInfo): Candidate | undefined {
  if (lowestPriority(target) >= priorityOf(input.pod)) return undefined;
  const lower = target.pods.filter((p) => priorityOf(p) < priorityOf(input.pod) && !p.metadata.deletionTimestamp);
  if (lower.length === 0) return undefined;
  const kept = target.pods.filter((p) => !lower.includes(p));
  if (!fits(input, target, kept)) return undefined;
  const ordered = [...lower].sort((a, b) => priorityOf(b) - priorityOf(a) || startOf(a) - startOf(b));
  const { violating, fine } = byBudget(ordered, input.budgets);
  const victims: Pod[] = [];
  let budgetViolations = 0;
  for (const group of [violating, fine]) {
    for (const p of group) {
      if (fits(input, target, [...kept, p])) kept.push(p);
      else {
        victims.push(p);
        if (group === violating) budgetViolations++;
      }
    }
  }
  return { node: target.name, victims, budgetViolations };
}

/** kube's pickOneNodeForPreemption ordering: negative when `a` is the better candidate. */
function compareCandidates(a: Candidate, b: Candidate): number {
  const top = (c: Candidate): number => Math.max(...c.victims.map(priorityOf));
  const sum = (c: Candidate): number => c.victims.reduce((s, p) => s + priorityOf(p), 0);
  const latestTopStart = (c: Candidate): number =>
    Math.max(...c.victims.filter((p) => priorityOf(p) === top(c)).map(startOf));
  return (
    a.budgetViolations - b.budgetViolations ||
    top(a) - top(b) ||
    sum(a) - sum(b) ||
    a.victims.length - b.victims.length ||
    latestTopStart(b) - latestTopStart(a)
  );
}

/** Runs the PostFilter for a pod no node took. */
export function preempt(input: PreemptionInput): PreemptionOutcome {
  const n = input.nodes.length;
  const why = ineligible(input.pod, input.nodes);
  if (why) return { kind: 'none', message: why, clearNomination: false };
  const candidates: Candidate[] = [];
  let unresolvable = 0;
  for (const node of input.nodes) {
    if (!input.verdicts.get(node.name)?.resolvable) {
      unresolvable++;
      continue;
    }
    const c = candidateOn(input, node);
    if (c) candidates.push(c);
  }
  const best = candidates.sort(compareCandidates)[0];
  if (best) return { kind: 'preempt', candidate: best };
  const parts = [
    unresolvable > 0 ? `${unresolvable} Preemption is not helpful for scheduling` : '',
    n - unresolvable > 0 ? `${n - unresolvable} No preemption victims found for incoming pod` : '',
  ];
  return {
    kind: 'none',
    message: `0/${n} nodes are available: ${parts.filter(Boolean).sort().join(', ')}.`,
    clearNomination: true,
  };
}
