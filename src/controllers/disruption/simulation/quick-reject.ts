/**
 * A necessary condition for a removal to succeed, checked on resource totals only: the pods to move must fit,
 * in sum and one by one, into the free capacity left on the other nodes plus the largest new node that is
 * cheap enough. Placement constraints only ever remove options, so a removal that fails here fails in the
 * solver too; this lets a pass skip most hopeless candidates in microseconds instead of a full solve.
 */
import {
  addResources,
  fitsIn,
  fromResourceList,
  maxResources,
  podRequests,
  subtractResources,
  type Resources,
} from '../../../scheduling/index.js';
import type * as sched from '../../../scheduling/index.js';
import type { Candidate } from '../types.js';
import type { RemovalOutcome } from './removal-simulator.js';

interface NodeFree {
  name: string;
  free: Resources;
}

/** Free capacity per node and the instance types by price, computed once per snapshot. */
export class QuickReject {
  private readonly free: NodeFree[] = [];
  private readonly totalFree: Resources = {};
  /** Allocatable of every launchable instance type, cheapest first. */
  private readonly types: { price: number; allocatable: Resources }[] = [];
  /** Element-wise max allocatable of types[0..i]. */
  private readonly prefixMax: Resources[] = [];

  /** Prepares the totals from the nodes that can receive pods. */
  constructor(receivers: readonly sched.ExistingNode[], instanceTypes: readonly sched.InstanceType[]) {
    for (const n of receivers) {
      let used: Resources = {};
      for (const p of n.pods ?? []) used = addResources(used, podRequests(p));
      const free = subtractResources(fromResourceList(n.allocatable), used);
      this.free.push({ name: n.name, free });
      for (const k in free) this.totalFree[k] = (this.totalFree[k] ?? 0) + Math.max(0, free[k] ?? 0);
    }
    for (const it of instanceTypes) {
      // Price and allocatable only: no need for the full preparation (requirements) here.
      const prices = it.offerings.filter((o) => o.available).map((o) => o.price);
      if (prices.length === 0) continue;
      const allocatable = it.allocatable
        ? fromResourceList(it.allocatable)
        : subtractResources(fromResourceList(it.capacity), fromResourceList(it.overhead));
      this.types.push({ price: Math.min(...prices), allocatable });
    }
    this.types.sort((a, b) => a.price - b.price);
    let acc: Resources = {};
    for (const t of this.types) {
      acc = maxResources(acc, t.allocatable);
      this.prefixMax.push(acc);
    }
  }

  /** An outcome that surely strands a pod, or undefined when the removal might succeed. */
  check(candidates: readonly Candidate[], maxNewNodePrice = Number.POSITIVE_INFINITY): RemovalOutcome | undefined {
    const biggestNew = this.biggestType(maxNewNodePrice);
    const { room, biggestFree } = this.roomWithout(new Set(candidates.map((c) => c.node.name)));
    const capacity = addResources(room, biggestNew);
    let need: Resources = {};
    for (const c of candidates) {
      for (const p of c.reschedulable) {
        const r = podRequests(p);
        if (!fitsIn(r, biggestFree) && !fitsIn(r, biggestNew))
          return stranded(
            p,
            'no other node has room for it and no instance type cheaper than the candidates can hold it',
          );
        need = addResources(need, r);
      }
    }
    const first = candidates.find((c) => c.reschedulable.length)?.reschedulable[0];
    if (first && !fitsIn(need, capacity))
      return stranded(
        first,
        'the pods to move need more than the free capacity left plus one instance type cheaper than the candidates',
      );
    return undefined;
  }

  private biggestType(maxPrice: number): Resources {
    // Binary search for the last type cheaper than maxPrice; prefixMax holds the element-wise max up to it.
    let lo = 0;
    let hi = this.types.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.types[mid]?.price ?? Number.POSITIVE_INFINITY) < maxPrice) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? {} : (this.prefixMax[lo - 1] ?? {});
  }

  private roomWithout(excluded: ReadonlySet<string>): { room: Resources; biggestFree: Resources } {
    const biggestFree: Resources = {};
    const room: Resources = { ...this.totalFree };
    for (const n of this.free) {
      if (!excluded.has(n.name)) {
        for (const k in n.free) {
          const v = n.free[k] ?? 0;
          if (v > (biggestFree[k] ?? 0)) biggestFree[k] = v;
        }
        continue;
      }
      for (const k in n.free) room[k] = (room[k] ?? 0) - Math.max(0, n.free[k] ?? 0);
    }
    return { room, biggestFree };
  }
}

function stranded(p: sched.Pod, reason: string): RemovalOutcome {
  return {
    stranded: [{ pod: `${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`, reason }],
    newNodeClaims: [],
  };
}
