/** The rules one topology group applies when it judges a pod: the hostname shortcut and how a domain is picked. */
import type { PodInfo } from '../pod-info.js';
import type { TopologyGroup } from './group.js';
import type { Pick } from './next-domain.js';

/** A group judging a pod: one of its own, another pod's anti-affinity against it, or one that counts it. */
export interface Judge {
  group: TopologyGroup;
  role: 'own' | 'inverse' | 'counted';
}

/** Whether a hostname-keyed group refuses a node already holding `count` matching pods (see next-domain.ts). */
export function hostnameRefuses(
  g: TopologyGroup,
  a: { pod: PodInfo; role: Judge['role']; domain: string; count: number; allowStart: boolean },
): boolean {
  const { spec } = g;
  if (a.role === 'inverse' || spec.type === 'anti-affinity') return a.count > 0;
  if (a.role === 'counted') {
    if (spec.type === 'affinity') return false;
    return (g.constrained.get(a.domain) ?? 0) > 0 && a.count + 1 > spec.maxSkew;
  }
  const self = g.selects(a.pod.namespace, a.pod.labels);
  if (spec.type === 'spread') return a.count + (self ? 1 : 0) > spec.maxSkew;
  return a.count === 0 && !(a.allowStart && g.nonEmpty === 0 && self);
}

/** The domains a key's judges allow so far, and the group whose rule picks one when one must be settled. */
export interface KeyState {
  allowed: string[];
  picker: { group: TopologyGroup; pick: Pick } | undefined;
}

/** One domain of `allowed` with the least or most matching pods of `group`, ties by name. */
export function pickDomain(group: TopologyGroup, allowed: readonly string[], pick: Pick): string {
  let best = allowed[0] ?? '';
  let bestCount = group.count(best);
  for (const d of allowed) {
    const c = group.count(d);
    const better = pick === 'least' ? c < bestCount : c > bestCount;
    if (better || (c === bestCount && d < best)) {
      best = d;
      bestCount = c;
    }
  }
  return best;
}
