import { addResources, fromResourceList, toResourceList } from '../../../scheduling/index.js';
import { quantities } from '../../resource-lists.js';

/** Sums resource lists by name (exact quantity arithmetic), as a NodePool's `status.resources` reports them. */
export function sumResources(lists: ReadonlyArray<Record<string, string | number>>): Record<string, string> {
  let total = {};
  for (const l of lists) total = addResources(total, fromResourceList(quantities(l)));
  const out = toResourceList(total);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
