/**
 * Required pod affinity with kube-scheduler's semantics over the final placement. Pods are bound one at a time, so
 * a placement is valid when some binding order lets every pod see, at its turn, a selected pod in its own domain —
 * or, when no pod anywhere is selected yet, the pod selects itself (the first pod of a self-affine group). The
 * checker replays such an order: pods without affinity first, then any pod whose terms are met, bootstrapping a
 * self-selecting group only when nothing is selected anywhere — and before the pods it selects, when they would
 * otherwise leave the group's pods stuck. Co-location is only certain on the same node or when
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

  clone(): Counts {
    const c = new Counts();
    c.total = this.total;
    for (const [k, v] of this.byToken) c.byToken.set(k, v);
    return c;
  }
}

/** Selected pods bound so far, per term. */
class Bound {
  constructor(
    private readonly terms: ReadonlyMap<string, ResolvedTerm>,
    readonly counts: Map<string, Counts>,
  ) {}

  bind(p: PlacedPod): void {
    for (const t of this.terms.values()) if (termSelects(t, p)) this.counts.get(t.key)?.add(token(p.node, t.topologyKey));
  }

  clone(): Bound {
    return new Bound(this.terms, new Map([...this.counts].map(([k, c]) => [k, c.clone()])));
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
function settle(left: Pending[], bound: Bound): Pending[] {
  for (let progress = true; progress && left.length > 0; ) {
    progress = false;
    const next: Pending[] = [];
    for (const p of left) {
      if (unmet(p, bound.counts, false)) next.push(p);
      else {
        bound.bind(p.pod);
        progress = true;
      }
    }
    left = next;
  }
  return left;
}

/** The term `p` would start a group with: its first unmet term, when only starting the group meets it. */
function startedTerm(p: Pending, counts: Map<string, Counts>): ResolvedTerm | undefined {
  if (unmet(p, counts, true)) return undefined;
  return p.terms.find((t) => (counts.get(t.key)?.total ?? 0) === 0);
}

/**
 * The pod that starts a group: one of the pods `stuck` when no group starts, able to start its group now (nothing
 * it selects is bound yet), in the domain where most stuck pods wait on that term (a choice kube-scheduler's queue
 * order could make).
 */
function starter(stuck: Pending[], counts: Map<string, Counts>): Pending | undefined {
  const slot = (t: ResolvedTerm, p: Pending): string => `${t.key}\u0000${token(p.pod.node, t.topologyKey) ?? ''}`;
  const waiting = new Map<string, number>();
  for (const q of stuck) for (const t of q.terms) waiting.set(slot(t, q), (waiting.get(slot(t, q)) ?? 0) + 1);
  let best: Pending | undefined;
  let bestScore = 0;
  for (const p of stuck) {
    const t = startedTerm(p, counts);
    const score = t ? (waiting.get(slot(t, p)) ?? 0) : 0;
    if (score > bestScore) [best, bestScore] = [p, score];
  }
  return best;
}

/**
 * Replays a binding order; returns the pods that never get their terms met. A group must start before any pod it
 * selects binds (kube-scheduler lets the first pod skip its term only while no pod anywhere matches it), so settling
 * first could close a start the placement relies on. The replay therefore settles on a copy to learn which pods
 * stay stuck, starts one of their groups for real, and repeats; when nothing can start, the copy is kept.
 */
function replay(pending: Pending[], bound: Bound): { left: Pending[]; bound: Bound } {
  let left = pending;
  for (;;) {
    const trial = bound.clone();
    const stuck = settle(left, trial);
    const early = starter(stuck, bound.counts);
    if (early) {
      bound.bind(early.pod);
      left = left.filter((q) => q !== early);
      continue;
    }
    // A pod with several terms may be able to start only once settling met its other terms.
    const late = starter(stuck, trial.counts);
    if (!late) return { left: stuck, bound: trial };
    trial.bind(late.pod);
    [left, bound] = [stuck.filter((q) => q !== late), trial];
  }
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
  const initial = new Bound(terms, new Map([...terms.keys()].map((k) => [k, new Counts()])));
  const waiting = new Set(pending.map((p) => p.pod));
  for (const p of world.placed) if (!waiting.has(p)) initial.bind(p);
  const { left, bound } = replay(pending, initial);
  const counts = bound.counts;
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
