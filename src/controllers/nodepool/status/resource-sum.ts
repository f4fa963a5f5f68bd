import { addResources, fromResourceList, toResourceList, type Resources } from '../../../scheduling/index.js';
import { quantities } from '../../resource-lists.js';

/**
 * Sums resource lists by name (exact quantity arithmetic), as a NodePool's `status.resources` reports them.
 * `parsed` (the caller's, kept across sums) parses each list object once: a NodePool of thousands of NodeClaims
 * is summed again whenever one of them changes.
 */
export function sumResources(
  lists: ReadonlyArray<Record<string, string | number>>,
  parsed: WeakMap<object, Resources> = new WeakMap(),
): Record<string, string> {
  let total = {};
  for (const l of lists) {
    let r = parsed.get(l);
    if (!r) parsed.set(l, (r = fromResourceList(quantities(l))));
    total = addResources(total, r);
  }
  const out = toResourceList(total);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
