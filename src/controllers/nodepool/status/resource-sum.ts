import { addResources, fromResourceList, toResourceList, type Resources } from '../../../scheduling/index.js';
import { quantities } from '../../resource-lists.js';

// Each NodeClaim's capacity parsed once per object version, not once per sum: a NodePool of 5,000 NodeClaims is
// summed again whenever one of them changes.
const parsed = new WeakMap<object, Resources>();

/** Sums resource lists by name (exact quantity arithmetic), as a NodePool's `status.resources` reports them. */
export function sumResources(lists: ReadonlyArray<Record<string, string | number>>): Record<string, string> {
  let total = {};
  for (const l of lists) {
    let r = parsed.get(l);
    if (!r) parsed.set(l, (r = fromResourceList(quantities(l))));
    total = addResources(total, r);
  }
  const out = toResourceList(total);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
