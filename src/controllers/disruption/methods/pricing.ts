/**
 * Prices of a replacement's instance type options under its requirements (zone, capacity type), with
 * Karpenter's price filter: only options strictly cheaper than what the candidates cost now are kept.
 */
import { Labels } from '../../../api/index.js';
import {
  cheapestOffering,
  fromResourceList,
  preparedInstanceType,
  Requirement,
  Requirements,
  SolveCache,
  type InstanceTypeInfo,
} from '../../../scheduling/index.js';
import { FairPrice, type PricedCapacity } from './fair-price.js';
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
  /** Fair-price bounds by NodePool and replacement requirements. */
  private readonly fair = new Map<string, FairPrice>();

  /** Keeps the instance types of every NodePool; each pool's are prepared when first priced. */
  constructor(
    private readonly instanceTypesByNodePool: Readonly<Record<string, sched.InstanceType[]>>,
    private readonly cache: SolveCache = new SolveCache(),
  ) {}

  private typesOf(pool: string): Map<string, InstanceTypeInfo> {
    let m = this.byPool.get(pool);
    if (m) return m;
    m = new Map();
    for (const it of this.instanceTypesByNodePool[pool] ?? []) {
      const info = preparedInstanceType(it, this.cache);
      if (info) m.set(it.name, info);
    }
    this.byPool.set(pool, m);
    return m;
  }

  /**
   * How many times the replacement's price is the fair price of what it holds (1 = as cheap as any fleet of the
   * NodePool's types could hold it; see fair-price.ts). Unknown or unbounded fair prices count as a fit.
   */
  overpay(nc: sched.NewNodeClaim): number {
    const selector = nc.requirements.filter((r) => r.key !== Labels.instanceType);
    const key = `${nc.nodePool}\u0000${JSON.stringify(selector)}`;
    let fair = this.fair.get(key);
    if (!fair) {
      const reqs = Requirements.fromSelector(selector);
      fair = new FairPrice(launchable(this.typesOf(nc.nodePool).values(), reqs));
      this.fair.set(key, fair);
    }
    const bound = fair.of(fromResourceList(nc.requests));
    return bound > 0 && Number.isFinite(bound) ? nc.cheapest.price / bound : 1;
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

/** The types allowed by `reqs` (instance-type names aside) at their cheapest allowed offering. */
function launchable(types: Iterable<InstanceTypeInfo>, reqs: Requirements): PricedCapacity[] {
  const out: PricedCapacity[] = [];
  for (const info of types) {
    if (info.requirements.intersects(reqs)) continue;
    const o = cheapestOffering(info, reqs);
    if (o) out.push({ price: o.price, allocatable: info.allocatable });
  }
  return out;
}

/** The planned NodeClaim narrowed to `options` (cheapest first) under `reqs`. */
export function narrowed(
  nc: sched.NewNodeClaim,
  reqs: Requirements,
  options: readonly PricedOption[],
): sched.NewNodeClaim {
  const r = reqs.copy();
  r.add(
    Requirement.of(
      Labels.instanceType,
      'In',
      options.map((o) => o.name),
    ),
  );
  const first = options[0];
  return {
    ...nc,
    requirements: r.toSelectorRequirements(),
    instanceTypeOptions: options.map((o) => o.name),
    cheapest: first
      ? { instanceType: first.name, zone: first.zone, capacityType: first.capacityType, price: first.price }
      : nc.cheapest,
  };
}

/** The requirements of a planned NodeClaim. */
export function requirementsOf(nc: sched.NewNodeClaim): Requirements {
  return Requirements.fromSelector(nc.requirements);
}
