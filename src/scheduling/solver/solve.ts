/**
 * The solve loop: pods in queue order, each placed or relaxed and re-queued, until the queue is empty or stops
 * making progress. Deterministic: no randomness is used beyond input order and the seed (reserved for
 * randomized improvement passes).
 */
import type { SchedulingInput, SchedulingResult, Strategy, UnplacedReason } from '../model.js';
import { Labels } from '../../api/index.js';
import { podKey, type PodInfo } from '../pod-info.js';
import { relax } from '../preferences.js';
import type { Resources } from '../resources/resources.js';
import { SolveCache } from '../solve-cache.js';
import type { Topology } from '../topology/topology.js';
import { inContentOrder } from './canonical.js';
import { newSolveContext } from './context.js';
import { Packing } from './packing.js';
import { PodQueue } from './queue.js';
import { merge } from './merge.js';
import { repack } from './repack.js';
import { buildResult } from './result.js';

/** One way to pack: Tenon with bin targets (target.ts), Tenon by marginal price alone, or Karpenter's FFD. */
export type Variant = {
  strategy: Strategy;
  targets: boolean;
  /** Pod keys to place before all others. */
  first?: ReadonlySet<string>;
  /** Tenon: run the improvement pass (repack.ts) after packing; on unless false. */
  repack?: boolean;
  /** Tenon: then move pods tied to their node by hostname constraints (merge.ts); on unless false or no repack. */
  merge?: boolean;
  /** Tenon: end the hostname step with ruin and recreate (ruin.ts); on unless false. */
  ruin?: boolean;
  /**
   * When NodePool limits bind, planned NodeClaims drop their options larger than the type they launch as (see
   * Packing.underLimits); off unless set (solve() retries with it when pods were left out by limits).
   */
  tighten?: boolean;
};

/**
 * Up to this many pending pods, Tenon packs the batch three ways (bin targets, marginal price, Karpenter's FFD)
 * and keeps the best (fewest unplaced pods, then lowest price): neither greedy rule wins everywhere (targets win
 * on real catalogs with per-node overhead, marginal price where topology keeps bins small), and a small batch
 * then never costs more than FFD would; pods still left over are tried first once more. Larger batches pick one Tenon variant by packing a sample
 * both ways (ProbePods of them), then pack the whole batch once (again, with the leftovers first or the other
 * way, if pods were left unplaced).
 */
export const PortfolioMaxPods = 600;

function better(a: SchedulingResult, b: SchedulingResult): boolean {
  return a.unplaced.length < b.unplaced.length || (a.unplaced.length === b.unplaced.length && a.cost < b.cost - 1e-9);
}

/** Price per placed pod: a probe leaving a pod or two unplaced (spread on a sample) should not decide alone. */
function probeScore(r: SchedulingResult): number {
  const placed = r.existingNodes.length + r.nominated.length + r.newNodeClaims.reduce((n, c) => n + c.pods.length, 0);
  return placed === 0 ? Number.POSITIVE_INFINITY : r.cost / placed;
}

/** Pods in the sample a large batch's variant is chosen on. */
export const ProbePods = 200;

/** Every k-th pod (deterministic), about ProbePods of them. */
function sample(input: SchedulingInput): SchedulingInput {
  const step = Math.ceil(input.pods.length / ProbePods);
  return { ...input, pods: input.pods.filter((_, i) => i % step === 0) };
}

/**
 * Places pending pods on existing nodes, in-flight NodeClaims and new NodeClaims, cheapest first. `usage` (what
 * counts against each NodePool's limits) may be given by a caller that keeps it across many solves of one cluster,
 * and `cache` by a caller that solves the same cluster again (see solve-cache.ts).
 */
export function solve(
  given: SchedulingInput,
  usage?: Map<string, Resources>,
  cache: SolveCache = new SolveCache(),
): SchedulingResult {
  const input = inContentOrder(given, cache.contentKeys);
  const strategy = input.strategy ?? 'tenon';
  if (strategy === 'karpenter-ffd') return pack(input, { strategy, targets: false }, usage, cache);
  const targets: Variant = { strategy, targets: true };
  const marginal: Variant = { strategy, targets: false };
  const shared: Shared = { usage, cache, heldByLimits: false };
  const run = (rules: Rules): SchedulingResult =>
    input.pods.length > PortfolioMaxPods ? solveLarge(input, rules, shared) : solveSmall(input, rules, shared);
  const best = run({ targets, marginal });
  // Any packing, not only the best: a packing of few large NodeClaims (Karpenter's FFD) can stay under limits
  // that every NodeClaim reserving its largest option keeps the cheaper packings from.
  if (!shared.heldByLimits) return best;
  // Planned NodeClaims that give up their options larger than the type they launch as when the limits bind
  // (Packing.underLimits) cannot grow, which costs nodes wherever the limits are not what holds pods back: the
  // whole solve again with them, kept only when it places more pods (or as many, cheaper).
  const tightened = run({ targets: { ...targets, tighten: true }, marginal: { ...marginal, tighten: true } });
  return better(tightened, best) ? tightened : best;
}

/** Whether some pod was left out by a NodePool's limits. */
function heldByLimits(r: SchedulingResult): boolean {
  return r.unplaced.some((u) => u.reasons.some((x) => x.constraint === 'nodepool-limits'));
}

interface Rules {
  targets: Variant;
  marginal: Variant;
}

interface Shared {
  usage: Map<string, Resources> | undefined;
  cache: SolveCache;
  /** Set once a packing of this solve left a pod out for its NodePool's limits. */
  heldByLimits: boolean;
}

/** One packing of a solve, noting in `shared` whether limits held a pod back. */
function packFor(input: SchedulingInput, variant: Variant, shared: Shared): SchedulingResult {
  const r = pack(input, variant, shared.usage, shared.cache);
  if (heldByLimits(r)) shared.heldByLimits = true;
  return r;
}

/** A large batch: one rule, chosen on a sample, then retries while pods are left over. */
function solveLarge(input: SchedulingInput, { targets, marginal }: Rules, shared: Shared): SchedulingResult {
  const probe = sample(input);
  // The probes only rank the two rules: the hostname merge (merge.ts) is left to the full packing.
  const [first, second] =
    probeScore(packFor(probe, { ...marginal, merge: false }, shared)) <=
    probeScore(packFor(probe, { ...targets, merge: false }, shared))
      ? [marginal, targets]
      : [targets, marginal];
  let best = packFor(input, first, shared);
  // Pods left over (e.g. two spread constraints closing every zone): place them first, or every pod carrying a
  // zone spread first, or the other way.
  for (const v of [
    { ...first, first: new Set(best.unplaced.map((u) => u.pod)) },
    { ...first, first: spreadCarriers(input) },
    second,
  ]) {
    if (best.unplaced.length === 0) break;
    const r = packFor(input, v, shared);
    if (better(r, best)) best = r;
  }
  return best;
}

/** A small batch: the portfolio of three packings, ruin and recreate on the best, then retries for leftovers. */
function solveSmall(input: SchedulingInput, { targets, marginal }: Rules, shared: Shared): SchedulingResult {
  // Ruin and recreate (ruin.ts) is the costly part of the hostname step: it runs once, on the best rule's packing.
  let best = packFor(input, { ...targets, ruin: false }, shared);
  let bestVariant: Variant = targets;
  for (const v of [
    { ...marginal, ruin: false },
    { strategy: 'karpenter-ffd' as const, targets: false, tighten: targets.tighten },
  ]) {
    const r = packFor(input, v, shared);
    if (better(r, best)) [best, bestVariant] = [r, v];
  }
  if (bestVariant.strategy === 'tenon' && best.newNodeClaims.length > 0) {
    const r = packFor(input, { ...bestVariant, ruin: true }, shared);
    if (better(r, best)) best = r;
  }
  // Pods left over (e.g. a pod confined to a zone that a wider spread owner placed earlier would overfill): try
  // them first, as large batches do.
  for (const first of [new Set(best.unplaced.map((u) => u.pod)), spreadCarriers(input)]) {
    if (best.unplaced.length === 0) break;
    const r = packFor(input, { ...targets, first }, shared);
    if (better(r, best)) best = r;
  }
  return best;
}

/**
 * Pods carrying a DoNotSchedule spread on a key other than the hostname. Placed before the pods those spreads only
 * count, they see counts made by their own kind alone: a pod counted by one zone spread and carrying another can
 * find every zone closed by the pair once the counted-only pods have filled zones the carriers had not reached yet.
 */
function spreadCarriers(input: SchedulingInput): Set<string> {
  const out = new Set<string>();
  for (const pod of input.pods) {
    if (
      (pod.spec.topologySpreadConstraints ?? []).some(
        (c) => c.whenUnsatisfiable === 'DoNotSchedule' && c.topologyKey !== Labels.hostname,
      )
    )
      out.add(podKey(pod));
  }
  return out;
}

/** Places the first pod of `pending` (queue order) that can go somewhere once affinity groups may be started. */
function startOne(packing: Packing, pending: readonly PodInfo[], topology: Topology): PodInfo | undefined {
  topology.allowStart = true;
  try {
    return pending.find((p) => packing.place(p) === undefined);
  } finally {
    topology.allowStart = false;
  }
}

/** One packing of the batch with the given variant (exported for benchmarks and tests). */
export function pack(
  input: SchedulingInput,
  variant: Variant,
  usage?: Map<string, Resources>,
  cache: SolveCache = new SolveCache(),
): SchedulingResult {
  const ctx = newSolveContext(input, usage, cache);
  const strategy = variant.strategy;
  const packing = new Packing(ctx, strategy, {
    targets: variant.targets,
    tighten: variant.tighten ?? false,
  });
  const failures = new Map<PodInfo, UnplacedReason[]>();
  const schedulable: PodInfo[] = [];
  for (const p of ctx.pods) {
    if (p.volumes.error) failures.set(p, [{ constraint: 'volume-binding', message: p.volumes.error }]);
    else schedulable.push(p);
  }
  const toleratePreferNoSchedule = ctx.templates.some((t) => t.taints.some((x) => x.effect === 'PreferNoSchedule'));
  const order = { strategy, first: variant.first };
  const kept = packing.placeNominated(schedulable);
  for (let pending = kept.size > 0 ? schedulable.filter((p) => !kept.has(p)) : schedulable; pending.length > 0;) {
    const queue = new PodQueue(pending, order);
    for (let pod = queue.pop(); pod; pod = queue.pop()) {
      const reasons = packing.place(pod);
      if (!reasons) {
        failures.delete(pod);
        continue;
      }
      failures.set(pod, reasons);
      queue.push(pod, relax(pod, { toleratePreferNoSchedule, cache }) !== undefined);
    }
    // Stuck: let one self-selecting pod start its affinity group, then carry on (see Topology.allowStart).
    pending = queue.remaining();
    const started = startOne(packing, pending, ctx.topology);
    if (!started) break;
    failures.delete(started);
    pending = pending.filter((p) => p !== started);
  }
  if (strategy === 'tenon' && variant.repack !== false) {
    repack(packing);
    if (variant.merge !== false) merge(packing, { ruin: variant.ruin !== false });
  }
  return buildResult(packing, failures);
}
