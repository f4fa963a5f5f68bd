/**
 * The solve loop: pods in queue order, each placed or relaxed and re-queued, until the queue is empty or stops
 * making progress. Deterministic: no randomness is used beyond input order and the seed (reserved for
 * randomized improvement passes).
 */
import type { SchedulingInput, SchedulingResult, Strategy, UnplacedReason } from '../model.js';
import type { PodInfo } from '../pod-info.js';
import { relax } from '../preferences.js';
import { newSolveContext } from './context.js';
import { Packing } from './packing.js';
import { PodQueue, queueOrder } from './queue.js';
import { buildResult } from './result.js';

/** One way to pack: Tenon with bin targets (target.ts), Tenon by marginal price alone, or Karpenter's FFD. */
type Variant = { strategy: Strategy; targets: boolean };

/**
 * Tenon packs every batch two ways (with bin targets, and by marginal price alone) and keeps the better (fewest
 * unplaced pods, then lowest price): neither greedy rule wins everywhere (targets win on real catalogs with
 * per-node overhead, marginal price where topology keeps bins small). Up to this many pending pods it also tries
 * Karpenter's FFD, so a small batch never costs more than FFD would; FFD is too slow to add on large batches.
 */
export const PortfolioMaxPods = 600;

/** Places pending pods on existing nodes, in-flight NodeClaims and new NodeClaims, cheapest first. */
export function solve(input: SchedulingInput): SchedulingResult {
  const strategy = input.strategy ?? 'tenon';
  if (strategy === 'karpenter-ffd') return pack(input, { strategy, targets: false });
  const variants: Variant[] = [{ strategy, targets: false }];
  if (input.pods.length <= PortfolioMaxPods) variants.push({ strategy: 'karpenter-ffd', targets: false });
  let best = pack(input, { strategy, targets: true });
  for (const v of variants) {
    const r = pack(input, v);
    if (r.unplaced.length < best.unplaced.length || (r.unplaced.length === best.unplaced.length && r.cost < best.cost - 1e-9)) best = r;
  }
  return best;
}

function pack(input: SchedulingInput, variant: Variant): SchedulingResult {
  const ctx = newSolveContext(input);
  const strategy = variant.strategy;
  const packing = new Packing(ctx, strategy, { targets: variant.targets });
  const failures = new Map<PodInfo, UnplacedReason[]>();
  const schedulable: PodInfo[] = [];
  for (const p of ctx.pods) {
    if (p.volumes.error) failures.set(p, [{ constraint: 'volume-binding', message: p.volumes.error }]);
    else schedulable.push(p);
  }
  const toleratePreferNoSchedule = ctx.templates.some((t) => t.taints.some((x) => x.effect === 'PreferNoSchedule'));
  const queue = new PodQueue(schedulable, queueOrder(strategy));
  for (let pod = queue.pop(); pod; pod = queue.pop()) {
    const reasons = packing.place(pod);
    if (!reasons) {
      failures.delete(pod);
      continue;
    }
    failures.set(pod, reasons);
    queue.push(pod, relax(pod, { toleratePreferNoSchedule }) !== undefined);
  }
  return buildResult(packing, failures);
}
