/**
 * Required pod affinity with kube-scheduler's semantics over the final placement. Pods are bound one at a time, so
 * a placement is valid when some binding order lets every pod see, at its turn, a selected pod in its own domain —
 * or, when no pod anywhere is selected yet, the pod selects itself (the first pod of a self-affine group). The
 * checker replays such an order: pods without affinity first, then any pod whose terms are met, bootstrapping a
 * self-selecting group only when nothing is selected anywhere. Co-location is only certain on the same node or when
 * both domains are known, so an open domain (a multi-zone NodeClaim) only counts pods on that very node.
 */
import { resolveAffinityTerm, termSelects, type ResolvedTerm } from './terms.js';
import type { Violation } from './violation.js';
import type { CheckNode, PlacedPod, World } from './world.js';

/** Where co-location is certain: a known domain value, or the node itself. */
function token(node: CheckNode, key: string): string | undefined {
  const possible = node.labels.possible(key);
  const v = node.labels.certain(key);
  if (v !== undefined && v !== '*') return `v:${v}`;
  return [...possible].some((x) => x !== undefined) ? `n:${node.target}` : undefined;
}

class Counts {
  readonly byToken = new Map<string, number>();
  total = 0;

  add(t: string | undefined): void {
    this.total++;
    if (t !== undefined) this.byToken.set(t, (this.byToken.get(t) ?? 0) + 1);
  }
}

interface Pending {
  pod: PlacedPod;
  terms: ResolvedTerm[];
}

/** The first term of `p` not met by pods bound so far; `bootstrap` lets a self-selecting pod start its group. */
function unmet(p: Pending, counts: Map<string, Counts>, bootstrap: boolean): ResolvedTerm | undefined {
  return p.terms.find((t) => {
    const c = counts.get(t.key) ?? new Counts();
    const tok = token(p.pod.node, t.topologyKey);
    if (tok !== undefined && (c.byToken.get(tok) ?? 0) > 0) return false;
    return !(bootstrap && c.total === 0 && termSelects(t, p.pod) && tok !== undefined);
  });
}

/** Binds every pod whose terms are met, until none is; returns the pods still waiting. */
function settle(left: Pending[], counts: Map<string, Counts>, bind: (p: PlacedPod) => void): Pending[] {
  for (let progress = true; progress && left.length > 0; ) {
    progress = false;
    const next: Pending[] = [];
    for (const p of left) {
      if (unmet(p, counts, false)) next.push(p);
      else {
        bind(p.pod);
        progress = true;
      }
    }
    left = next;
  }
  return left;
}

/**
 * When stuck, the first self-selecting pod of a group nothing selects yet may bind anywhere; the checker lets the
 * pod whose domain holds the most pods waiting on that term go first (the choice kube-scheduler's queue order could
 * make), then settles again.
 */
function bootstrapOne(left: Pending[], counts: Map<string, Counts>): Pending | undefined {
  let best: Pending | undefined;
  let bestScore = -1;
  for (const p of left) {
    if (unmet(p, counts, true)) continue;
    const score = left.filter((q) => q.terms.some((t) => p.terms.some((u) => u.key === t.key)) && token(q.pod.node, p.terms[0]?.topologyKey ?? '') === token(p.pod.node, p.terms[0]?.topologyKey ?? '')).length;
    if (score > bestScore) [best, bestScore] = [p, score];
  }
  return best;
}

/** Pod-affinity violations of pods placed by this solve. */
export function checkPodAffinity(world: World): Violation[] {
  const terms = new Map<string, ResolvedTerm>();
  const pending: Pending[] = [];
  for (const p of world.placed) {
    if (!p.isNew) continue;
    const req = p.pod.spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    if (req.length === 0) continue;
    const resolved = req.map((t) => resolveAffinityTerm(t, p, world.input.namespaces));
    for (const r of resolved) terms.set(r.key, r);
    pending.push({ pod: p, terms: resolved });
  }
  if (pending.length === 0) return [];
  const counts = new Map<string, Counts>([...terms.keys()].map((k) => [k, new Counts()]));
  const bind = (p: PlacedPod): void => {
    for (const t of terms.values()) if (termSelects(t, p)) counts.get(t.key)?.add(token(p.node, t.topologyKey));
  };
  const waiting = new Set(pending.map((p) => p.pod));
  for (const p of world.placed) if (!waiting.has(p)) bind(p);
  let left = settle(pending, counts, bind);
  for (let p = bootstrapOne(left, counts); p; p = bootstrapOne(left, counts)) {
    bind(p.pod);
    left = settle(left.filter((q) => q !== p), counts, bind);
  }
  return left.map((p) => {
    const t = unmet(p, counts, false);
    const where = token(p.pod.node, t?.topologyKey ?? '') ?? 'no domain';
    return {
      family: 'pod-affinity' as const,
      pod: p.pod.key,
      target: p.pod.node.target,
      message: `required pod affinity on ${t?.topologyKey ?? '?'} (${JSON.stringify(t?.selector ?? null)}) has no selected pod certain to share ${where}`,
      details: { topologyKey: t?.topologyKey ?? '', selectedPodsAnywhere: counts.get(t?.key ?? '')?.total ?? 0 },
    };
  });
}
