/**
 * Prices of a replacement's instance type options under its requirements (zone, capacity type), with
 * Karpenter's price filter: only options strictly cheaper than what the candidates cost now are kept.
 */
import { Labels } from '../../../api/index.js';
import { cheapestOffering, fromResourceList, Requirement, Requirements, type InstanceTypeInfo, type Resources } from '../../../scheduling/index.js';
import { prepared } from '../simulation/prepared-types.js';
import type * as sched from '../../../scheduling/index.js';

/** An option with the price and offering it would launch at. */
export interface PricedOption {
  name: string;
  price: number;
  zone: string;
  capacityType: string;
}

/** Instance types prepared once per pass, by NodePool then name. */
export class Pricing {
  private readonly byPool = new Map<string, Map<string, InstanceTypeInfo>>();

  /** Keeps the instance types of every NodePool; each pool's are prepared when first priced. */
  constructor(private readonly instanceTypesByNodePool: Readonly<Record<string, sched.InstanceType[]>>) {}

  private typesOf(pool: string): Map<string, InstanceTypeInfo> {
    let m = this.byPool.get(pool);
    if (m) return m;
    m = new Map();
    for (const it of this.instanceTypesByNodePool[pool] ?? []) {
      const info = prepared(it);
      if (info) m.set(it.name, info);
    }
    this.byPool.set(pool, m);
    return m;
  }

  /**
   * How many times the replacement's price is the cheapest fractional price of what it holds (1 = a perfect
   * fit; see fractionalPrice).
   */
  overpay(nc: sched.NewNodeClaim): number {
    const reqs = Requirements.fromSelector(nc.requirements.filter((r) => r.key !== Labels.instanceType));
    const fair = fractionalPrice(this.typesOf(nc.nodePool).values(), reqs, fromResourceList(nc.requests));
    return fair > 0 && Number.isFinite(fair) ? nc.cheapest.price / fair : 1;
  }

  /** The options of a planned NodeClaim launchable under `reqs`, cheapest first. */
  options(nc: sched.NewNodeClaim, reqs: Requirements): PricedOption[] {
    const types = this.typesOf(nc.nodePool);
    const out: PricedOption[] = [];
    for (const name of nc.instanceTypeOptions) {
      const info = types?.get(name);
      const o = info ? cheapestOffering(info, reqs) : undefined;
      if (o) out.push({ name, price: o.price, zone: o.zone, capacityType: o.capacityType });
    }
    return out.sort((a, b) => a.price - b.price || (a.name < b.name ? -1 : 1));
  }
}

/**
 * The cheapest fractional price of `requests` on one instance type allowed by `reqs` (instance-type names
 * aside): price x the largest share of any resource it would use. No whole node of any single type holds the
 * requests for less, so a replacement's price over this measures how well its type and size fit what it holds.
 */
export function fractionalPrice(types: Iterable<InstanceTypeInfo>, reqs: Requirements, requests: Resources): number {
  let best = Number.POSITIVE_INFINITY;
  for (const info of types) {
    if (info.requirements.intersects(reqs)) continue;
    const o = cheapestOffering(info, reqs);
    if (!o) continue;
    let share = 0;
    for (const k in requests) {
      const need = requests[k] ?? 0;
      if (need <= 0) continue;
      const has = info.allocatable[k] ?? 0;
      share = Math.max(share, has > 0 ? need / has : Number.POSITIVE_INFINITY);
    }
    best = Math.min(best, o.price * share);
  }
  return best;
}

/** The planned NodeClaim narrowed to `options` (cheapest first) under `reqs`. */
export function narrowed(nc: sched.NewNodeClaim, reqs: Requirements, options: readonly PricedOption[]): sched.NewNodeClaim {
  const r = reqs.copy();
  r.add(Requirement.of(Labels.instanceType, 'In', options.map((o) => o.name)));
  const first = options[0];
  return {
    ...nc,
    requirements: r.toSelectorRequirements(),
    instanceTypeOptions: options.map((o) => o.name),
    cheapest: first ? { instanceType: first.name, zone: first.zone, capacityType: first.capacityType, price: first.price } : nc.cheapest,
  };
}

/** The requirements of a planned NodeClaim. */
export function requirementsOf(nc: sched.NewNodeClaim): Requirements {
  return Requirements.fromSelector(nc.requirements);
}
