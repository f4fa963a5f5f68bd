/**
 * Tenon's cost-aware choice of what a new NodeClaim should grow to. Karpenter lets a planned NodeClaim grow until
 * its largest instance type is full, then launches the cheapest type that holds what landed there; bins then
 * follow the largest type's shape, not the workload's. Instead, when a bin opens, Tenon picks the instance type
 * with the lowest price per unit of the remaining demand it can cover (the pods still waiting that could share
 * this NodePool, by their bottleneck resource), and fills the bin up to that type: pods that fit in it cost
 * nothing more (rank.ts). At the end every bin still launches the cheapest type that fits what it holds, so a
 * small tail gets a small node.
 */
import type { InstanceTypeInfo } from '../instance-types.js';
import type { PodInfo } from '../pod-info.js';
import { Requirements } from '../requirements/requirements.js';
import { WellKnownLabels } from '../requirements/well-known.js';
import { addInto, type Resources } from '../resources/resources.js';
import { untoleratedTaint } from '../taints.js';
import { minValuesFailure } from './options.js';
import type { Template } from './template.js';

function demandClass(p: PodInfo): string {
  return Object.keys(p.requests)
    .filter((k) => k !== 'pods' && (p.requests[k] ?? 0) > 0)
    .sort()
    .join(',');
}

/** Remaining requests of unplaced pods, per NodePool and per set of requested resource names. */
export class Demand {
  private readonly totals = new Map<string, Resources>();
  private readonly keysOf = new Map<PodInfo, string[]>();

  constructor(templates: readonly Template[], pods: readonly PodInfo[]) {
    const empty = new Requirements();
    for (const p of pods) {
      const cls = demandClass(p);
      const keys: string[] = [];
      for (const t of templates) {
        if (untoleratedTaint(t.taints, p.tolerations)) continue;
        if (t.requirements.compatible(p.requirements ?? empty, WellKnownLabels)) continue;
        const key = `${t.name}|${cls}`;
        keys.push(key);
        const total = this.totals.get(key) ?? {};
        addInto(total, p.requests);
        this.totals.set(key, total);
      }
      this.keysOf.set(p, keys);
    }
  }

  /** Removes a placed pod from the demand. */
  remove(p: PodInfo): void {
    for (const key of this.keysOf.get(p) ?? []) {
      const total = this.totals.get(key);
      if (!total) continue;
      for (const k in p.requests) total[k] = (total[k] ?? 0) - (p.requests[k] ?? 0);
    }
    this.keysOf.delete(p);
  }

  /** The remaining demand that could share a NodeClaim of `t` with `p` (including `p` if still counted). */
  of(t: Template, p: PodInfo): Resources {
    return this.totals.get(`${t.name}|${demandClass(p)}`) ?? p.requests;
  }
}

/** Price per unit of demand covered: what filling this type with the remaining pods costs per share of them. */
function costPerCover(it: InstanceTypeInfo, demand: Resources, overhead: Resources): number {
  let cover = 1;
  for (const k in demand) {
    const d = demand[k] ?? 0;
    if (d <= 0) continue;
    const avail = (it.allocatable[k] ?? 0) - (overhead[k] ?? 0);
    cover = Math.min(cover, Math.max(avail, 0) / d);
  }
  return cover > 0 ? it.price / cover : Number.POSITIVE_INFINITY;
}

/**
 * Picks the target among `options` (all fit the first pod) and returns it with the options worth keeping: those
 * no dearer than the target, extended cheapest-first until every minValues holds.
 */
export function chooseTarget(
  options: readonly InstanceTypeInfo[],
  opts: { demand: Resources; overhead: Resources; requirements: Requirements },
): { target: InstanceTypeInfo; options: InstanceTypeInfo[] } | undefined {
  let best: InstanceTypeInfo | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const it of options) {
    const s = costPerCover(it, opts.demand, opts.overhead);
    if (s < bestScore || (s === bestScore && best && it.price < best.price)) {
      best = it;
      bestScore = s;
    }
  }
  if (!best) return undefined;
  const limit = best.price;
  const kept = options.filter((it) => it.price <= limit);
  for (const it of options) {
    if (!minValuesFailure(kept, opts.requirements)) break;
    if (!kept.includes(it)) kept.push(it);
  }
  return { target: best, options: kept };
}
