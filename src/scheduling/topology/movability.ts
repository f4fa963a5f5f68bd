/**
 * Which pods may move between planned nodes without breaking their topology: a move between two nodes settled to
 * the same domains changes no count, unless a constraint depends on the node itself (hostname) or on labels other
 * than its key.
 */
import { Labels } from '../../api/index.js';
import type { TopologyGroup } from './group.js';

const hostnameKey = Labels.hostname;

/**
 * Spread groups whose count on a domain depends on more than the domain: their owners' node filter involves
 * another label (arch, say), so moving a counted pod between two nodes of one zone could change the count.
 */
export function nodeFilteredGroups(groups: Iterable<TopologyGroup>): Set<TopologyGroup> {
  const out = new Set<TopologyGroup>();
  for (const g of groups) {
    const terms = g.spec.nodeFilter?.terms ?? [];
    if (terms.some((t) => [...t.keys()].some((k) => k !== g.spec.key))) out.add(g);
  }
  return out;
}

/**
 * The topology keys whose domain some constraint of `involving` (a pod's own groups, groups counting it,
 * anti-affinity against it) depends on, or undefined when its very node matters: a hostname-keyed group involves
 * it, or a spread group whose owners filter nodes by a label other than its key counts it (moving it between two
 * nodes of one zone could change their count).
 */
export function movableKeysOf(
  involving: readonly TopologyGroup[],
  filtered: ReadonlySet<TopologyGroup>,
): ReadonlySet<string> | undefined {
  const keys = new Set<string>();
  for (const g of involving) {
    if (g.spec.key === hostnameKey || filtered.has(g)) return undefined;
    keys.add(g.spec.key);
  }
  return keys;
}

/**
 * What may keep a pod from moving to another planned node of the same domains: the keys other than hostname whose
 * domain some constraint depends on (as movableKeysOf), and the hostname-keyed spread and anti-affinity groups it
 * owns. With a hostname minimum of zero those are limits on the pods sharing its node alone, which the caller
 * checks on the node it moves to. Undefined when the pod may not move: a hostname affinity involves it (its
 * partner must stay beside it), or a node-filtered spread counts it.
 */
export function localRulesOf(
  owned: readonly TopologyGroup[],
  involving: readonly TopologyGroup[],
  filtered: ReadonlySet<TopologyGroup>,
): { keys: ReadonlySet<string>; own: readonly TopologyGroup[] } | undefined {
  const keys = new Set<string>();
  for (const g of involving) {
    if (filtered.has(g) || (g.spec.key === hostnameKey && g.spec.type === 'affinity')) return undefined;
    if (g.spec.key !== hostnameKey) keys.add(g.spec.key);
  }
  const own = owned.filter(
    (g) => g.spec.key === hostnameKey && (g.spec.type === 'spread' || g.spec.type === 'anti-affinity'),
  );
  return { keys, own };
}
