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
import type { PodInfo, PodTraits } from '../pod-info.js';
import { Requirements } from '../requirements/requirements.js';
import { WellKnownLabels } from '../requirements/well-known.js';
import { addInto, type Resources } from '../resources/resources.js';
import { untoleratedTaint } from '../taints.js';
import { minValuesFailure } from './options.js';
import type { Template } from './template.js';

/** Class and shape text per requests object: pods of one template share theirs (pod-info.ts). */
type RequestTexts = WeakMap<Readonly<Resources>, { cls: string; shape: string }>;

function requestTexts(classes: RequestTexts, p: PodInfo): { cls: string; shape: string } {
  let texts = classes.get(p.requests);
  if (!texts) {
    const r = p.requests;
    const cls = Object.keys(r)
      .filter((k) => k !== 'pods' && (r[k] ?? 0) > 0)
      .sort()
      .join(',');
    const shape = Object.entries(r)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    classes.set(r, (texts = { cls, shape }));
  }
  return texts;
}

/** The set of requested resource names of a pod (what demand is grouped by). */
function demandClass(classes: RequestTexts, p: PodInfo): string {
  return requestTexts(classes, p).cls;
}

/** A pod's exact request shape. */
function shapeOf(classes: RequestTexts, p: PodInfo): string {
  return requestTexts(classes, p).shape;
}

/** The demand keys a pod counts under, and the same with its request shape. */
interface DemandKeys {
  keys: string[];
  shaped: string[];
}

/** The keys of the NodePools whose NodeClaims `p` could join. */
function demandKeys(classes: RequestTexts, templates: readonly Template[], p: PodInfo): DemandKeys {
  const out: DemandKeys = { keys: [], shaped: [] };
  for (const t of templates) {
    if (untoleratedTaint(t.taints, p.tolerations)) continue;
    if (t.requirements.compatible(p.requirements, WellKnownLabels)) continue;
    const key = `${t.name}|${demandClass(classes, p)}`;
    out.keys.push(key);
    out.shaped.push(`${key}|${shapeOf(classes, p)}`);
  }
  return out;
}

/** Remaining requests of unplaced pods, per NodePool and per set of requested resource names. */
export class Demand {
  private readonly texts: RequestTexts = new WeakMap();
  private readonly totals = new Map<string, Resources>();
  /** Per pod, the keys it was counted under (shared by the pods of one traits object). */
  private readonly keysOf = new Map<PodInfo, DemandKeys>();
  /** Pods still counted per demand key, and per demand key and exact request shape. */
  private readonly counts = new Map<string, number>();

  constructor(templates: readonly Template[], pods: readonly PodInfo[]) {
    const byTraits = new Map<PodTraits, DemandKeys>();
    for (const p of pods) {
      let keys = byTraits.get(p.traits);
      if (!keys) byTraits.set(p.traits, (keys = demandKeys(this.texts, templates, p)));
      for (let i = 0; i < keys.keys.length; i++) {
        const key = keys.keys[i] ?? '';
        const total = this.totals.get(key) ?? {};
        addInto(total, p.requests);
        this.totals.set(key, total);
        this.bump(key, 1);
        this.bump(keys.shaped[i] ?? '', 1);
      }
      this.keysOf.set(p, keys);
    }
  }

  /** Removes a placed pod from the demand. */
  remove(p: PodInfo): void {
    const keys = this.keysOf.get(p);
    if (!keys) return;
    for (let i = 0; i < keys.keys.length; i++) {
      const total = this.totals.get(keys.keys[i] ?? '');
      if (!total) continue;
      for (const k in p.requests) total[k] = (total[k] ?? 0) - (p.requests[k] ?? 0);
      this.bump(keys.keys[i] ?? '', -1);
      this.bump(keys.shaped[i] ?? '', -1);
    }
    this.keysOf.delete(p);
  }

  private bump(key: string, by: number): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + by);
  }

  /** The share of the remaining pods that could share a NodeClaim of `t` with `p` that have exactly p's requests. */
  sameShape(t: Template, p: PodInfo): number {
    const key = `${t.name}|${demandClass(this.texts, p)}`;
    const all = this.counts.get(key) ?? 0;
    return all > 0 ? Math.min(1, (this.counts.get(`${key}|${shapeOf(this.texts, p)}`) ?? 0) / all) : 1;
  }

  /** The remaining demand that could share a NodeClaim of `t` with `p` (including `p` if still counted). */
  of(t: Template, p: PodInfo): Resources {
    return this.totals.get(`${t.name}|${demandClass(this.texts, p)}`) ?? p.requests;
  }
}

/** Room on `it` after DaemonSet overhead, and how many whole opening pods fit in it. */
function roomFor(it: InstanceTypeInfo, a: TargetArgs): { room: Resources; whole: number } {
  const room: Resources = {};
  let whole = Number.POSITIVE_INFINITY;
  for (const k in a.demand) {
    room[k] = Math.max((it.allocatable[k] ?? 0) - (a.overhead[k] ?? 0), 0);
    const u = a.unit[k] ?? 0;
    if (u > 0 && (a.demand[k] ?? 0) > 0) whole = Math.min(whole, Math.floor((room[k] ?? 0) / u));
  }
  return { room, whole };
}

/** What the choice of a target weighs. */
interface TargetArgs {
  demand: Resources;
  overhead: Resources;
  /** The pod opening the bin, and the share of the remaining pods with exactly its requests. */
  unit: Resources;
  sameShape: number;
}

/**
 * Price per unit of demand covered: what filling this type with the remaining pods costs per share of them.
 * Pods are indivisible: the part of the demand made of pods shaped like the opening pod only fills whole pods
 * (a 256 GiB node holds ten 24 GiB pods, not 10.6), the rest is counted as divisible.
 */
function costPerCover(it: InstanceTypeInfo, a: TargetArgs): number {
  const { room, whole } = roomFor(it, a);
  let cover = 1;
  for (const k in a.demand) {
    const d = a.demand[k] ?? 0;
    if (d <= 0) continue;
    const r = room[k] ?? 0;
    const discrete = Number.isFinite(whole) ? Math.min(r, whole * (a.unit[k] ?? 0)) : r;
    const avail = a.sameShape * discrete + (1 - a.sameShape) * r;
    cover = Math.min(cover, avail / d);
  }
  return cover > 0 ? it.price / cover : Number.POSITIVE_INFINITY;
}

/**
 * Picks the target among `options` (all fit the first pod) and returns it with the options worth keeping: those
 * no dearer than the target, extended cheapest-first until every minValues holds.
 */
export function chooseTarget(
  options: readonly InstanceTypeInfo[],
  opts: TargetArgs & { requirements: Requirements },
): { target: InstanceTypeInfo; options: InstanceTypeInfo[] } | undefined {
  let best: InstanceTypeInfo | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const it of options) {
    const s = costPerCover(it, opts);
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
