/**
 * A necessary condition for a removal to succeed, checked on resource totals only: the pods to move must fit,
 * in sum and one by one, into the free capacity left on the other nodes plus the largest new node that is
 * cheap enough. Placement constraints only ever remove options, so a removal that fails here fails in the
 * solver too; this lets a pass skip most hopeless candidates in microseconds instead of a full solve.
 */
import { addResources, fitsIn, fromResourceList, maxResources, podRequests, prepareInstanceType, subtractResources, type Resources } from '../../../scheduling/index.js';
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
      const info = prepareInstanceType(it);
      if (info) this.types.push({ price: info.price, allocatable: info.allocatable });
    }
    this.types.sort((a, b) => a.price - b.price);
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
        if (!fitsIn(r, biggestFree) && !fitsIn(r, biggestNew)) return stranded(p, 'no remaining node or affordable new node has room for it');
        need = addResources(need, r);
      }
    }
    const first = candidates.find((c) => c.reschedulable.length)?.reschedulable[0];
    if (first && !fitsIn(need, capacity)) return stranded(first, 'the pods to move need more than the free capacity left plus one affordable new node');
    return undefined;
  }

  private biggestType(maxPrice: number): Resources {
    let out: Resources = {};
    for (const t of this.types) {
      if (t.price >= maxPrice) break;
      out = maxResources(out, t.allocatable);
    }
    return out;
  }

  private roomWithout(excluded: ReadonlySet<string>): { room: Resources; biggestFree: Resources } {
    let biggestFree: Resources = {};
    const room: Resources = { ...this.totalFree };
    for (const n of this.free) {
      if (!excluded.has(n.name)) {
        biggestFree = maxResources(biggestFree, n.free);
        continue;
      }
      for (const k in n.free) room[k] = (room[k] ?? 0) - Math.max(0, n.free[k] ?? 0);
    }
    return { room, biggestFree };
  }
}

function stranded(p: sched.Pod, reason: string): RemovalOutcome {
  return { stranded: [{ pod: `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`, reason }], newNodeClaims: [] };
}
