/**
 * The improvement pass after a greedy packing: planned NodeClaims whose pods may move (no constraint ties a pod to
 * its node, only to a zone or other domain the NodeClaim has settled) are grouped by NodePool and settled domains,
 * and their pods re-packed from scratch per class of node requirements (cover.ts). A group's new NodeClaims
 * replace the old ones only when they cost less in total, so the pass never raises the price. Every pod stays in
 * the same domain of every key its constraints involve, so topology counts and decisions are unchanged.
 */
import { Labels } from '../../api/index.js';
import { cheapestOffering, type InstanceTypeInfo } from '../instance-types.js';
import type { PodInfo } from '../pod-info.js';
import { Requirement } from '../requirements/requirement.js';
import type { Requirements } from '../requirements/requirements.js';
import { addResources, fitsIn, subtractResources, type Resources } from '../resources/resources.js';
import { cover, type BinKind, type CoverBin } from './cover.js';
import { NewBin } from './new-bin.js';
import { remainingOf } from './limits.js';
import { minValuesFailure } from './options.js';
import type { Packing } from './packing.js';
import { binPrice } from './result.js';
import type { Template } from './template.js';

/** Pods examined by one pass at most (tens of milliseconds); a class that would need more keeps its greedy packing. */
const Budget = 1_500_000;

interface Group {
  template: Template;
  /** Domains the NodeClaims of the group have settled for keys their pods' constraints involve. */
  settled: Requirement[];
  bins: NewBin[];
}

/** The settled domains a bin's pods depend on, or undefined when some pod may not leave its node. */
function settledFor(bin: NewBin, packing: Packing): Requirement[] | undefined {
  const keys = new Set<string>();
  for (const pod of bin.pods) {
    if (pod.hostPorts.length > 0) return undefined;
    const involved = packing.ctx.topology.movableKeys(pod);
    if (!involved) return undefined;
    for (const k of involved) keys.add(k);
  }
  const out: Requirement[] = [];
  for (const key of [...keys].sort()) {
    const r = bin.requirements.get(key);
    const value = r && !r.complement && r.values.size === 1 ? r.any() : undefined;
    if (value === undefined) return undefined;
    out.push(Requirement.of(key, 'In', [value]));
  }
  return out;
}

function groupsOf(packing: Packing): Group[] {
  const groups = new Map<string, Group>();
  for (const bin of packing.newBins) {
    const settled = settledFor(bin, packing);
    if (!settled) continue;
    const key = [bin.template.name, ...settled.map((r) => r.toString())].join('|');
    const g = groups.get(key);
    if (g) g.bins.push(bin);
    else groups.set(key, { template: bin.template, settled, bins: [bin] });
  }
  return [...groups.values()];
}

function signature(reqs: Requirements): string {
  return [...reqs.values()]
    .map((r) => r.toString())
    .sort()
    .join(';');
}

/** Pods of the group by node requirements (pods of one class may share any node). */
function classesOf(bins: readonly NewBin[]): PodInfo[][] {
  const by = new Map<string, PodInfo[]>();
  const pods = bins.flatMap((b) => b.pods).sort((a, b) => a.index - b.index);
  for (const pod of pods) {
    const s = signature(pod.requirements);
    const list = by.get(s);
    if (list) list.push(pod);
    else by.set(s, [pod]);
  }
  return [...by.values()];
}

interface ClassPlan {
  requirements: Requirements;
  /** Types compatible with the requirements, in the template's order (cheapest first). */
  compatible: InstanceTypeInfo[];
  bins: CoverBin[];
}

function planClass(group: Group, pods: PodInfo[], budget: { left: number }): ClassPlan | undefined {
  const t = group.template;
  const first = pods[0];
  if (!first) return undefined;
  const requirements = t.requirements.copy().addAll(first.requirements);
  for (const r of group.settled) requirements.add(r);
  const compatible: InstanceTypeInfo[] = [];
  const kinds: BinKind[] = [];
  for (const it of t.instanceTypes) {
    if (it.requirements.intersects(requirements) !== undefined) continue;
    const o = cheapestOffering(it, requirements);
    if (!o) continue;
    compatible.push(it);
    kinds.push({ it, price: o.price, room: subtractResources(it.allocatable, t.daemonOverhead) });
  }
  kinds.sort((a, b) => a.price - b.price || (a.it.name < b.it.name ? -1 : 1));
  const minValues = [...requirements.values()].some((r) => r.minValues !== undefined);
  const valid = (contents: Resources): boolean => {
    if (!minValues) return true;
    const total = addResources(t.daemonOverhead, contents);
    return (
      minValuesFailure(
        compatible.filter((it) => fitsIn(total, it.allocatable)),
        requirements,
      ) === undefined
    );
  };
  const bins = cover({ pods, kinds, valid, budget });
  return bins && { requirements, compatible, bins };
}

function build(plan: ClassPlan, group: Group, packing: Packing): NewBin[] {
  return plan.bins.map((b) => {
    const hostname = packing.newHostname();
    const requirements = plan.requirements.copy().add(Requirement.of(Labels.hostname, 'In', [hostname]));
    const total = addResources(group.template.daemonOverhead, {});
    for (const p of b.pods) for (const k in p.requests) total[k] = (total[k] ?? 0) + (p.requests[k] ?? 0);
    const options = plan.compatible.filter((it) => fitsIn(total, it.allocatable));
    return NewBin.rebuilt(group.template, hostname, { requirements, options, pods: b.pods });
  });
}

function price(bins: readonly NewBin[]): number {
  return bins.reduce((s, b) => s + (binPrice(b) ?? Number.POSITIVE_INFINITY), 0);
}

/** Re-packs the movable planned NodeClaims of `packing` where that lowers the price (see the module comment). */
export function repack(packing: Packing): void {
  const budget = { left: Budget };
  for (const group of groupsOf(packing)) {
    const plans: ClassPlan[] = [];
    for (const pods of classesOf(group.bins)) {
      const plan = planClass(group, pods, budget);
      if (!plan) break;
      plans.push(plan);
    }
    if (
      plans.length === 0 ||
      plans.reduce((n, p) => n + p.bins.reduce((m, b) => m + b.pods.length, 0), 0) !==
        group.bins.reduce((n, b) => n + b.pods.length, 0)
    )
      continue;
    // Each new NodeClaim launches its cover's type or a cheaper one that also fits: the plan's price bounds it.
    const planned = plans.reduce((s, p) => s + p.bins.reduce((t, b) => t + b.kind.price, 0), 0);
    if (planned >= price(group.bins) - 1e-9) continue;
    const fresh = plans.flatMap((p) => build(p, group, packing));
    if (group.template.remaining && !withinLimitsAfter(packing, group, fresh)) continue;
    packing.replaceBins(group.bins, fresh);
  }
}

/**
 * Whether the NodePool's limits still hold with `fresh` in place of the group's NodeClaims. When they would not, the
 * new NodeClaims first give up their options larger (in the limited resources) than the type they launch as, as
 * planned NodeClaims do when limits bind (NewBin.tighten): each otherwise reserves its largest option.
 */
function withinLimitsAfter(packing: Packing, group: Group, fresh: readonly NewBin[]): boolean {
  const gone = new Set(group.bins);
  const bins = [...packing.newBins.filter((b) => !gone.has(b)), ...fresh];
  const holds = (): boolean => Object.values(remainingOf(group.template, bins)).every((v) => v >= 0);
  if (holds()) return true;
  for (const b of fresh) b.tighten();
  return holds();
}
