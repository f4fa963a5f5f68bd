/**
 * A valid lower bound on the hourly cost of any fleet that holds a set of pods: the LP relaxation of
 * "buy instance types (fractionally) so that total allocatable CPU and memory cover the pods' requests". Its
 * optimum sits on a vertex: one type covering both resources, or two types with both constraints tight, so
 * enumerating single types and pairs solves it exactly. Real fleets pay more (whole nodes, per-node packing,
 * pod limits), never less, so costAfter / lowerBound measures how close consolidation gets.
 */
import { fromResourceList, podRequests } from '../../src/scheduling/index.js';
import type * as sched from '../../src/scheduling/index.js';

interface TypeCost {
  price: number;
  cpu: number;
  mem: number;
}

function typeCosts(types: readonly sched.InstanceType[]): TypeCost[] {
  const out: TypeCost[] = [];
  for (const t of types) {
    const a = fromResourceList(t.allocatable ?? t.capacity);
    const price = Math.min(...t.offerings.filter((o) => o.available).map((o) => o.price));
    if (Number.isFinite(price) && (a['cpu'] ?? 0) > 0 && (a['memory'] ?? 0) > 0)
      out.push({ price, cpu: a['cpu'] ?? 0, mem: a['memory'] ?? 0 });
  }
  return out;
}

/** The LP lower bound for `pods` over `types` (hourly price). */
export function lowerBound(pods: readonly sched.Pod[], types: readonly sched.InstanceType[]): number {
  let cpu = 0;
  let mem = 0;
  for (const p of pods) {
    const r = podRequests(p);
    cpu += r['cpu'] ?? 0;
    mem += r['memory'] ?? 0;
  }
  if (cpu === 0 && mem === 0) return 0;
  const ts = typeCosts(types);
  let best = Number.POSITIVE_INFINITY;
  for (const t of ts) best = Math.min(best, t.price * Math.max(cpu / t.cpu, mem / t.mem));
  for (let i = 0; i < ts.length; i++) {
    for (let j = i + 1; j < ts.length; j++) {
      const a = ts[i] as TypeCost;
      const b = ts[j] as TypeCost;
      // Solve a.cpu x + b.cpu y = cpu, a.mem x + b.mem y = mem.
      const det = a.cpu * b.mem - b.cpu * a.mem;
      if (det === 0) continue;
      const x = (cpu * b.mem - b.cpu * mem) / det;
      const y = (a.cpu * mem - cpu * a.mem) / det;
      if (x >= 0 && y >= 0) best = Math.min(best, a.price * x + b.price * y);
    }
  }
  return best;
}
