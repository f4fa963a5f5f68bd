/**
 * The solve loop: pods in queue order, each placed or relaxed and re-queued, until the queue is empty or stops
 * making progress. Deterministic: no randomness is used beyond input order and the seed (reserved for
 * randomized improvement passes).
 */
import type { SchedulingInput, SchedulingResult, UnplacedReason } from '../model.js';
import type { PodInfo } from '../pod-info.js';
import { relax } from '../preferences.js';
import { newSolveContext } from './context.js';
import { Packing } from './packing.js';
import { PodQueue, queueOrder } from './queue.js';
import { buildResult } from './result.js';

/** Places pending pods on existing nodes, in-flight NodeClaims and new NodeClaims, cheapest first. */
export function solve(input: SchedulingInput): SchedulingResult {
  const ctx = newSolveContext(input);
  const strategy = input.strategy ?? 'tenon';
  const packing = new Packing(ctx, strategy);
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
