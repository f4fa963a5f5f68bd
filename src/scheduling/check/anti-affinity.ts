/**
 * Required pod anti-affinity over the final placement, both directions: a pod placed by this solve may share no
 * topology domain with a pod its terms select, and no pod already running may see a new pod its own terms select
 * in its domain. A node whose domain is still open (a multi-zone NodeClaim) collides with every domain it may take.
 */
import { resolveAffinityTerm, termSelects, domainValues, type ResolvedTerm } from './terms.js';
import type { Violation } from './violation.js';
import type { PlacedPod, World } from './world.js';

interface Group {
  term: ResolvedTerm;
  owners: PlacedPod[];
}

function groups(world: World): Map<string, Group> {
  const out = new Map<string, Group>();
  for (const p of world.placed) {
    for (const t of p.pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
      const term = resolveAffinityTerm(t, p, world.input.namespaces);
      let g = out.get(term.key);
      if (!g) out.set(term.key, (g = { term, owners: [] }));
      g.owners.push(p);
    }
  }
  return out;
}

function culprit(world: World, g: Group, owner: PlacedPod, values: ReadonlySet<string>): string {
  const other = world.placed.find(
    (q) =>
      q !== owner &&
      (owner.isNew || q.isNew) &&
      termSelects(g.term, q) &&
      domainValues(q.node, g.term.topologyKey).some((v) => values.has(v)),
  );
  return other ? `${other.key} on ${other.node.target}` : 'another pod';
}

/** Anti-affinity violations involving at least one pod placed by this solve. */
export function checkAntiAffinity(world: World): Violation[] {
  const out: Violation[] = [];
  for (const g of groups(world).values()) {
    const key = g.term.topologyKey;
    const all = new Map<string, number>();
    const fresh = new Map<string, number>();
    for (const q of world.placed) {
      if (!termSelects(g.term, q)) continue;
      for (const v of domainValues(q.node, key)) {
        all.set(v, (all.get(v) ?? 0) + 1);
        if (q.isNew) fresh.set(v, (fresh.get(v) ?? 0) + 1);
      }
    }
    for (const owner of g.owners) {
      const values = domainValues(owner.node, key);
      const counts = owner.isNew ? all : fresh;
      const self = owner.isNew && termSelects(g.term, owner) ? values.length : 0;
      const others = values.reduce((s, v) => s + (counts.get(v) ?? 0), 0) - self;
      if (others <= 0) continue;
      const message = `anti-affinity on ${key}: shares ${values.length > 1 ? 'a possible' : 'its'} domain ${values.join('|')} with ${culprit(world, g, owner, new Set(values))}`;
      out.push({
        family: 'pod-anti-affinity',
        pod: owner.key,
        target: owner.node.target,
        message,
        details: { topologyKey: key, conflicts: others },
      });
    }
  }
  return out;
}
