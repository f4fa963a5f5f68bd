/**
 * The fair price of a set of requests: a lower bound on what any fleet of a NodePool's instance types pays to
 * hold them, from the LP relaxation "buy types fractionally so that their allocatable covers the requests". For
 * CPU and memory the optimum of that two-constraint LP mixes at most two types (it sits on a vertex), so single
 * types and pairs are enumerated; every other resource is bounded on its own by the type cheapest per unit of it,
 * and the largest bound holds. A replacement's price over this says how well its type and size suit what it
 * holds: a c-type holding CPU-heavy pods at 95% comes close to 1, a huge m-type three quarters full does not.
 */
import type { Resources } from '../../../scheduling/index.js';

/** One launchable type as the bound sees it: its cheapest allowed price and its allocatable. */
export interface PricedCapacity {
  price: number;
  allocatable: Resources;
}

interface CpuMem {
  price: number;
  cpu: number;
  mem: number;
}

/** Fair prices over one set of launchable types (one NodePool under one set of requirements). */
export class FairPrice {
  /** Types no other type beats on both CPU and memory per dollar: the only ones an optimal mix needs. */
  private readonly frontier: CpuMem[];

  /** Prepares the CPU/memory frontier once; `types` are kept for the other resources. */
  constructor(private readonly types: readonly PricedCapacity[]) {
    const points = types
      .filter((t) => t.price > 0)
      .map((t) => ({ price: t.price, cpu: t.allocatable['cpu'] ?? 0, mem: t.allocatable['memory'] ?? 0 }))
      .sort((a, b) => b.cpu / b.price - a.cpu / a.price || b.mem / b.price - a.mem / a.price);
    this.frontier = [];
    let bestMem = -1;
    for (const p of points) {
      if (p.mem / p.price <= bestMem) continue;
      bestMem = p.mem / p.price;
      this.frontier.push(p);
    }
  }

  /** The lower bound for `requests` (hourly price); infinite when no type offers a requested resource. */
  of(requests: Resources): number {
    let bound = this.cpuMemory(Math.max(0, requests['cpu'] ?? 0), Math.max(0, requests['memory'] ?? 0));
    for (const k in requests) {
      const need = requests[k] ?? 0;
      if (k === 'cpu' || k === 'memory' || need <= 0) continue;
      bound = Math.max(bound, this.single(k, need));
    }
    return bound;
  }

  private single(resource: string, need: number): number {
    let best = Number.POSITIVE_INFINITY;
    for (const t of this.types) {
      const has = t.allocatable[resource] ?? 0;
      if (has > 0) best = Math.min(best, (t.price * need) / has);
    }
    return best;
  }

  private cpuMemory(cpu: number, mem: number): number {
    if (cpu === 0 && mem === 0) return 0;
    let best = Number.POSITIVE_INFINITY;
    for (const t of this.frontier) best = Math.min(best, t.price * Math.max(share(cpu, t.cpu), share(mem, t.mem)));
    for (let i = 0; i < this.frontier.length; i++) {
      for (let j = i + 1; j < this.frontier.length; j++)
        best = Math.min(best, pairPrice(this.frontier[i], this.frontier[j], cpu, mem));
    }
    return best;
  }
}

function share(need: number, has: number): number {
  if (need <= 0) return 0;
  return has > 0 ? need / has : Number.POSITIVE_INFINITY;
}

/** The price of x of `a` and y of `b` with both constraints tight, when such a mix exists (x, y >= 0). */
function pairPrice(a: CpuMem | undefined, b: CpuMem | undefined, cpu: number, mem: number): number {
  if (!a || !b) return Number.POSITIVE_INFINITY;
  const det = a.cpu * b.mem - b.cpu * a.mem;
  if (det === 0) return Number.POSITIVE_INFINITY;
  const x = (cpu * b.mem - b.cpu * mem) / det;
  const y = (a.cpu * mem - cpu * a.mem) / det;
  return x >= 0 && y >= 0 ? a.price * x + b.price * y : Number.POSITIVE_INFINITY;
}
