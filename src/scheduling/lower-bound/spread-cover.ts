/**
 * Zone spread in the class cover, for placements judged with Karpenter's topology domains (the checker's
 * `domains: 'karpenter'`). When a class's pods all carry the same DoNotSchedule zone spread constraint whose selector
 * counts exactly those pods (each of them, no other pending pod, no pod already on a node), then in any valid
 * placement the class's count c_d in each domain d satisfies, for every occupied d, c_d ≤ c_e + maxSkew for every other
 * eligible domain e (the checker's rule with the pod itself counted in its own domain). With m the least count over
 * the Z discovered domains (the NodePools' zones the pods' node filter allows; the checker counts at least these),
 * every domain holds at most m + maxSkew, so n ≤ m + (Z − 1)(m + maxSkew) and every domain holds at least
 *   L = ceil((n − (Z − 1)·maxSkew) / Z).
 * Nodes never mix classes here (class cover's condition), so the class costs at least the cheapest way to split its n
 * pods over the domains, each at least L, each domain's share covered by whole nodes of that zone at that zone's
 * price (minus what existing nodes there take free): a dynamic programme over domains and pod counts. Pods cannot
 * sit outside the discovered domains: a new node's zone is one its NodePool offers and the pod's filter allows, and
 * the term is skipped when an existing node able to take the class lies elsewhere.
 */
import { Labels } from '../../api/index.js';
import { discoveredDomains } from '../rules/karpenter-domains.js';
import { selectorMatches } from '../rules/labels.js';
import type { Pod, SchedulingInput, TopologySpreadConstraint } from '../model.js';
import { cheapestCovers, usefulSizes, type Size } from './class-cover.js';
import type { PodClass, Variant } from './shapes.js';

/** One domain's share: pods its existing nodes take free and the new-node sizes it offers. */
export interface ZoneShare {
  zone: string;
  existing: number;
  sizes: Size[];
}

/** How a class must split over its domains: at least `least` pods in each. */
export interface ZoneSplit {
  least: number;
  zones: ZoneShare[];
}

const namespaceOf = (p: Pod): string => p.metadata.namespace ?? 'default';

/** The zone spread constraint every pod of the class carries alike, if any. */
function sharedConstraint(c: PodClass): TopologySpreadConstraint | undefined {
  const first = c.pods[0];
  if (!first) return undefined;
  const found = (first.spec.topologySpreadConstraints ?? []).find(
    (x) => x.whenUnsatisfiable === 'DoNotSchedule' && x.topologyKey === Labels.zone,
  );
  if (!found?.labelSelector || (found.matchLabelKeys ?? []).length > 0) return undefined;
  const all = JSON.stringify(first.spec.topologySpreadConstraints);
  const alike = c.pods.every(
    (p) => namespaceOf(p) === namespaceOf(first) && JSON.stringify(p.spec.topologySpreadConstraints) === all,
  );
  return alike ? found : undefined;
}

/** True when the constraint counts exactly the class's pods among pending pods and pods already on nodes. */
function countsExactly(c: PodClass, cons: TopologySpreadConstraint, input: SchedulingInput): boolean {
  const ns = namespaceOf(c.pods[0] ?? { metadata: { name: '' }, spec: { containers: [] } });
  const matches = (p: Pod): boolean =>
    namespaceOf(p) === ns && selectorMatches(cons.labelSelector, p.metadata.labels ?? {});
  if (!c.pods.every(matches)) return false;
  const own = new Set(c.pods);
  if (input.pods.some((p) => !own.has(p) && matches(p))) return false;
  return ![...(input.nodes ?? []), ...(input.nodeClaims ?? [])].some((n) => (n.pods ?? []).some(matches));
}

/**
 * The split class `index` must respect, or undefined when the term does not apply. `held[v][index]` is how many of
 * its pods one node of `variants[v]` holds.
 */
export function zoneSplit(a: {
  cls: PodClass;
  index: number;
  input: SchedulingInput;
  variants: readonly Variant[];
  held: readonly (readonly number[])[];
}): ZoneSplit | undefined {
  const cons = sharedConstraint(a.cls);
  const first = a.cls.pods[0];
  if (!cons || !first || !countsExactly(a.cls, cons, a.input)) return undefined;
  const domains = discoveredDomains(a.input, first, cons);
  const z = domains.length;
  if (z === 0 || (cons.minDomains !== undefined && cons.minDomains > z)) return undefined;
  const zones = domains.map((zone): ZoneShare => ({ zone, existing: 0, sizes: [] }));
  for (const v of a.variants) {
    const held = a.held[v.id]?.[a.index] ?? 0;
    if (held <= 0) continue;
    for (const [zone, price] of v.zonePrices) {
      const share = zones.find((s) => s.zone === zone);
      // An existing node able to take the class outside the discovered domains: the split need not hold.
      if (!share) {
        if (v.existing) return undefined;
        continue;
      }
      if (v.existing) share.existing += held;
      else share.sizes.push({ price, held });
    }
  }
  const least = Math.max(0, Math.ceil((a.cls.count - (z - 1) * cons.maxSkew) / z));
  return { least, zones: zones.map((s) => ({ ...s, sizes: usefulSizes(s.sizes) })) };
}

/** The cheapest split of `n` pods (each domain at least `least`), or undefined beyond the work budget or when none is possible. */
export function splitCover(n: number, split: ZoneSplit, budget = 20_000_000): number | undefined {
  if (split.zones.length * (n + 1) * (n + 1) > budget) return undefined;
  let best = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  best[0] = 0;
  for (const share of split.zones) {
    const covers = cheapestCovers(n, share.sizes);
    const next = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
    for (let t = 0; t <= n; t++) {
      const before = best[t] ?? Number.POSITIVE_INFINITY;
      if (!Number.isFinite(before)) continue;
      for (let k = split.least; t + k <= n; k++) {
        const cost = before + (covers[Math.max(0, k - share.existing)] ?? Number.POSITIVE_INFINITY);
        if (cost < (next[t + k] ?? Number.POSITIVE_INFINITY)) next[t + k] = cost;
      }
    }
    best = next;
  }
  const out = best[n] ?? Number.POSITIVE_INFINITY;
  return Number.isFinite(out) ? out : undefined;
}
