/**
 * Prices for the hostname-aware step (merge.ts): the cheapest type of a NodePool that holds a NodeClaim's contents
 * under its requirements, looked up many times per pass, so over each catalog's non-dominated types only.
 */
import { Labels } from '../../api/index.js';
import { cheapestOffering, type InstanceTypeInfo } from '../instance-types.js';
import type { Requirements } from '../requirements/requirements.js';
import { fitsIn, type Resources } from '../resources/resources.js';
import type { SolveCache } from '../solve-cache.js';
import type { Template } from './template.js';

/** Types a NodeClaim with the given requirements may launch, in the template's order, each at its price there. */
type Priced = { it: InstanceTypeInfo; price: number }[];

/** The types a NodeClaim's requirements allow, in the template's order and on the price frontier. */
export type PriceLists = { list: Priced; byPrice: Priced };

/** Kept types each type is compared with for dominance (the latest ones: most of the beating is done nearby). */
const DominanceWindow = 8;

/**
 * The types that can be the cheapest to hold something, sorted by price. A type with no more room in any resource
 * than one as cheap or cheaper before it never is (the earlier one holds whatever it holds), so dropping it changes
 * no first fit; it is compared with the last few kept only, which keeps this linear on catalogs of hundreds.
 */
function frontier(sorted: Priced): Priced {
  const keys = [...new Set(sorted.flatMap((x) => Object.keys(x.it.allocatable)))];
  const out: Priced = [];
  for (const x of sorted) {
    const beaten = out
      .slice(-DominanceWindow)
      .some((o) => keys.every((k) => (o.it.allocatable[k] ?? 0) >= (x.it.allocatable[k] ?? 0)));
    if (!beaten) out.push(x);
  }
  return out;
}

/**
 * Price lists per prepared instance type list (shared by a NodePool's templates across solves, see template.ts)
 * and requirements: a memo of immutable inputs, as the template preparation itself.
 */
/** Price look-ups of one pass (the lists themselves are shared across the solves of a cache). */
export class Prices {
  constructor(private readonly cache: SolveCache) {}

  /** Requirement objects are shared while pods without requirements move: most look-ups end here. */
  private readonly byObject = new WeakMap<
    Requirements,
    { template: Template; lists: { list: Priced; byPrice: Priced } }
  >();

  private lists(template: Template, reqs: Requirements): { list: Priced; byPrice: Priced } {
    const known = this.byObject.get(reqs);
    if (known && known.template === template) return known.lists;
    const lists = this.build(template, reqs);
    this.byObject.set(reqs, { template, lists });
    return lists;
  }

  private build(template: Template, reqs: Requirements): { list: Priced; byPrice: Priced } {
    const sig = [
      ...[...reqs.values()]
        .filter((r) => r.key !== Labels.hostname)
        .map((r) => r.toString())
        .sort(),
    ].join(';');
    let cache = this.cache.priceLists.get(template.instanceTypes);
    if (!cache) this.cache.priceLists.set(template.instanceTypes, (cache = new Map()));
    const cached = cache.get(sig);
    if (cached) return cached;
    const list: Priced = [];
    for (const it of template.instanceTypes) {
      if (it.requirements.intersects(reqs) !== undefined) continue;
      const o = cheapestOffering(it, reqs);
      if (o) list.push({ it, price: o.price });
    }
    const byPrice = frontier([...list].sort((a, b) => a.price - b.price || (a.it.name < b.it.name ? -1 : 1)));
    const out = { list, byPrice };
    cache.set(sig, out);
    return out;
  }

  /**
   * The cheapest price holding `requests` (overhead included) changed by `change`, or infinity. `change.atLeast`: a
   * price the answer cannot be below (a NodeClaim's own when a pod only joins it), so cheaper types are skipped.
   */
  price(
    template: Template,
    reqs: Requirements,
    requests: Resources,
    change: { add: Resources | undefined; sub: Resources | undefined; atLeast?: number } = {
      add: undefined,
      sub: undefined,
    },
  ): number {
    const atLeast = change.atLeast ?? 0;
    const byPrice = this.lists(template, reqs).byPrice;
    let lo = 0;
    for (let hi = byPrice.length; lo < hi;) {
      const mid = (lo + hi) >> 1;
      if ((byPrice[mid]?.price ?? 0) < atLeast - 1e-12) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < byPrice.length; i++) {
      const x = byPrice[i];
      if (x && fitsChanged(requests, change, x.it.allocatable)) return x.price;
    }
    return Number.POSITIVE_INFINITY;
  }

  /** The options of a rebuilt NodeClaim: every type that holds `requests`, in the template's order. */
  options(template: Template, reqs: Requirements, requests: Resources): InstanceTypeInfo[] {
    return this.lists(template, reqs)
      .list.filter((x) => fitsIn(requests, x.it.allocatable))
      .map((x) => x.it);
  }
}

/** True when `base` + `add` − `sub` fits in `room`. */
function fitsChanged(
  base: Resources,
  change: { add: Resources | undefined; sub: Resources | undefined },
  room: Resources,
): boolean {
  const { add, sub } = change;
  for (const k in base) if ((base[k] ?? 0) + (add?.[k] ?? 0) - (sub?.[k] ?? 0) > (room[k] ?? 0)) return false;
  if (add) for (const k in add) if (!(k in base) && (add[k] ?? 0) > (room[k] ?? 0)) return false;
  return true;
}
