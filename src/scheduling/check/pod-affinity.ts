/**
 * Required pod affinity with kube-scheduler's semantics over the final placement. A pod's required terms are judged
 * together (InterPodAffinity's satisfyPodAffinity): only pods matching every term count, and for each term the pod's
 * domain of that term's key must hold one. Pods are bound one at a time, so a placement is valid when some binding
 * order lets every pod see, at its turn, such a pod in each of its domains — or, when no pod anywhere matches all
 * its terms yet, the pod matches them all itself (the first pod of a self-affine group). The checker replays such an
 * order: pods without affinity first, then any pod whose terms are met, bootstrapping a self-selecting group only
 * when nothing is selected anywhere — and before the pods it selects, when they would otherwise leave the group's
 * pods stuck. Co-location is only certain on the same node or when both domains are known, so an open domain (a
 * multi-zone NodeClaim) only counts pods on that very node.
 */
import { resolveAffinityTerm, termSelects, type ResolvedTerm } from './terms.js';
import type { Violation } from './violation.js';
import type { CheckNode, PlacedPod, World } from './world.js';

/** One pod's required terms taken together: a pod counts only when every term selects it. */
interface TermSet {
  key: string;
  terms: ResolvedTerm[];
  /** The distinct topology keys of the terms, each a domain the pod must share with a counted pod. */
  topologyKeys: string[];
}

function termSet(terms: ResolvedTerm[]): TermSet {
  const key = JSON.stringify(terms.map((t) => t.key).sort());
  return { key, terms, topologyKeys: [...new Set(terms.map((t) => t.topologyKey))] };
}

function setSelects(s: TermSet, p: PlacedPod): boolean {
  return s.terms.every((t) => termSelects(t, p));
}

/** Where co-location is certain: a known domain value, or the node itself. */
function token(node: CheckNode, key: string): string | undefined {
  const possible = node.labels.possible(key);
  const v = node.labels.certain(key);
  if (v !== undefined && v !== '*') return `v:${v}`;
  return [...possible].some((x) => x !== undefined) ? `n:${node.target}` : undefined;
}

const slotOf = (key: string, tok: string): string => `${key}\u0000${tok}`;

class Counts {
  readonly bySlot = new Map<string, number>();
  /** Counted pods on nodes having some key of the set (kube-scheduler's affinityCounts is empty when this is 0). */
  total = 0;

  add(node: CheckNode, keys: readonly string[]): void {
    let any = false;
    for (const k of keys) {
      const t = token(node, k);
      if (t === undefined) continue;
      any = true;
      this.bySlot.set(slotOf(k, t), (this.bySlot.get(slotOf(k, t)) ?? 0) + 1);
    }
    if (any) this.total++;
  }

  has(node: CheckNode, key: string): boolean {
    const t = token(node, key);
    return t !== undefined && (this.bySlot.get(slotOf(key, t)) ?? 0) > 0;
  }

  clone(): Counts {
    const c = new Counts();
    c.total = this.total;
    for (const [k, v] of this.bySlot) c.bySlot.set(k, v);
    return c;
  }
}

/** The term sets of a solve and, per pod, those that count it (worked out once: replays bind pods many times). */
class Sets {
  private readonly memo = new Map<PlacedPod, TermSet[]>();

  constructor(readonly all: ReadonlyMap<string, TermSet>) {}

  counting(p: PlacedPod): TermSet[] {
    let out = this.memo.get(p);
    if (!out) this.memo.set(p, (out = [...this.all.values()].filter((s) => setSelects(s, p))));
    return out;
  }
}

/** Pods bound so far, counted per term set. */
class Bound {
  constructor(
    private readonly sets: Sets,
    readonly counts: Map<string, Counts>,
  ) {}

  bind(p: PlacedPod): void {
    for (const s of this.sets.counting(p)) this.counts.get(s.key)?.add(p.node, s.topologyKeys);
  }

  clone(): Bound {
    return new Bound(this.sets, new Map([...this.counts].map(([k, c]) => [k, c.clone()])));
  }
}

interface Pending {
  pod: PlacedPod;
  set: TermSet;
  /** The pod matches all its own terms (it may start its group). */
  self: boolean;
}

/**
 * The first topology key of `p` whose domain holds no counted pod, or undefined when its terms are met;
 * `bootstrap` lets a pod matching all its own terms start its group while nothing anywhere is counted.
 */
function unmet(p: Pending, counts: Map<string, Counts>, bootstrap: boolean): string | undefined {
  const c = counts.get(p.set.key) ?? new Counts();
  const node = p.pod.node;
  const missing = p.set.topologyKeys.find((k) => !c.has(node, k));
  if (missing === undefined) return undefined;
  // A node without some key fails outright in kube-scheduler, first pod or not.
  const allKeys = p.set.topologyKeys.every((k) => token(node, k) !== undefined);
  return bootstrap && c.total === 0 && p.self && allKeys ? undefined : missing;
}

/** Binds every pod whose terms are met, until none is; returns the pods still waiting. */
function settle(left: Pending[], bound: Bound): Pending[] {
  for (let progress = true; progress && left.length > 0;) {
    progress = false;
    const next: Pending[] = [];
    for (const p of left) {
      if (unmet(p, bound.counts, false) !== undefined) next.push(p);
      else {
        bound.bind(p.pod);
        progress = true;
      }
    }
    left = next;
  }
  return left;
}

/** True when `p` can bind now only by starting its group. */
function canStart(p: Pending, counts: Map<string, Counts>): boolean {
  return unmet(p, counts, false) !== undefined && unmet(p, counts, true) === undefined;
}

/** The slot a pending pod waits in: its term set and its domains. */
function waitSlot(p: Pending): string {
  return [p.set.key, ...p.set.topologyKeys.map((k) => token(p.pod.node, k) ?? '')].join('\u0000');
}

/**
 * How many of the stuck pods `left` look stranded after `bound`: not reachable even if every group that may still
 * start (nothing matching all its terms bound yet) did start, and every pod so met bound in turn. Optimistic about
 * starts (two may exclude each other), but it never lets two stuck pods vouch for each other.
 */
function stranded(left: Pending[], bound: Bound): number {
  const startable = new Set(left.filter((q) => (bound.counts.get(q.set.key)?.total ?? 0) === 0).map((q) => q.set.key));
  const supply = bound.clone();
  let rest = left;
  for (let progress = true; progress && rest.length > 0;) {
    progress = false;
    const next: Pending[] = [];
    for (const q of rest) {
      if (startable.has(q.set.key) || unmet(q, supply.counts, false) === undefined) {
        supply.bind(q.pod);
        progress = true;
      } else next.push(q);
    }
    rest = next;
  }
  return rest.length;
}

/** Starts tried ahead per step: enough for the distinct groups a placement mixes, bounded for large ones. */
const lookahead = 8;

/**
 * The pod that starts a group: one of the pods `stuck` when no group starts, able to start its group now (nothing
 * matching all its terms is bound yet). Starting one group may close another's start (the starter matches that
 * group's terms too), so a few candidates are tried — those where most stuck pods of their group wait in the same
 * domains first — and the first leaving none of `rest` stranded after settling wins, else the one stranding the
 * fewest (an order kube-scheduler's queue could take).
 */
function starter(stuck: Pending[], from: Bound, rest: Pending[]): Pending | undefined {
  const waiting = new Map<string, number>();
  for (const q of stuck) waiting.set(waitSlot(q), (waiting.get(waitSlot(q)) ?? 0) + 1);
  const seen = new Set<string>();
  const candidates: { p: Pending; score: number }[] = [];
  for (const p of stuck) {
    if (!canStart(p, from.counts)) continue;
    // Pods alike in group, domains and labels start alike; one of them is enough to try.
    const sig = JSON.stringify([waitSlot(p), p.pod.namespace, p.pod.labels]);
    if (seen.has(sig)) continue;
    seen.add(sig);
    candidates.push({ p, score: waiting.get(waitSlot(p)) ?? 0 });
  }
  candidates.sort((x, y) => y.score - x.score);
  const tried = candidates.slice(0, lookahead);
  if (tried.length <= 1) return tried[0]?.p;
  let best: Pending | undefined;
  let fewest = Number.POSITIVE_INFINITY;
  for (const { p } of tried) {
    const trial = from.clone();
    trial.bind(p.pod);
    const dead = stranded(
      settle(
        rest.filter((q) => q !== p),
        trial,
      ),
      trial,
    );
    // A start that strands nobody is as good as any (the usual case: groups that do not select each other).
    if (dead === 0) return p;
    if (dead < fewest) [best, fewest] = [p, dead];
  }
  return best;
}

/**
 * Replays a binding order; returns the pods that never get their terms met. A group must start before any pod it
 * selects binds (kube-scheduler lets the first pod skip its terms only while no pod anywhere matches them), so
 * settling first could close a start the placement relies on. The replay therefore settles on a copy to learn which
 * pods stay stuck, starts one of their groups for real, and repeats; when nothing can start, the copy is kept.
 */
function replay(pending: Pending[], bound: Bound): { left: Pending[]; bound: Bound } {
  let left = pending;
  for (;;) {
    const trial = bound.clone();
    const stuck = settle(left, trial);
    const early = starter(stuck, bound, left);
    if (early) {
      bound.bind(early.pod);
      left = left.filter((q) => q !== early);
      continue;
    }
    // A group whose members settling did not reach may still start after it.
    const late = starter(stuck, trial, stuck);
    if (!late) return { left: stuck, bound: trial };
    trial.bind(late.pod);
    [left, bound] = [stuck.filter((q) => q !== late), trial];
  }
}

function violation(p: Pending, counts: Map<string, Counts>): Violation {
  const key = unmet(p, counts, false) ?? p.set.topologyKeys[0] ?? '?';
  const where = token(p.pod.node, key) ?? 'no domain';
  const selectors = p.set.terms.map((t) => JSON.stringify(t.selector ?? null)).join(' and ');
  const several = p.set.terms.length > 1;
  return {
    family: 'pod-affinity',
    pod: p.pod.key,
    target: p.pod.node.target,
    message: `required pod affinity on ${key} (${selectors}) has no ${several ? 'pod matching all its terms' : 'selected pod'} certain to share ${where}`,
    details: { topologyKey: key, terms: p.set.terms.length, selectedPodsAnywhere: counts.get(p.set.key)?.total ?? 0 },
  };
}

/** Pod-affinity violations of pods placed by this solve. */
export function checkPodAffinity(world: World): Violation[] {
  const sets = new Map<string, TermSet>();
  const pending: Pending[] = [];
  for (const p of world.placed) {
    if (!p.isNew) continue;
    const req = p.pod.spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    if (req.length === 0) continue;
    const set = termSet(req.map((t) => resolveAffinityTerm(t, p, world.input.namespaces)));
    const shared = sets.get(set.key) ?? set;
    sets.set(shared.key, shared);
    pending.push({ pod: p, set: shared, self: setSelects(shared, p) });
  }
  if (pending.length === 0) return [];
  const initial = new Bound(new Sets(sets), new Map([...sets.keys()].map((k) => [k, new Counts()])));
  const waiting = new Set(pending.map((p) => p.pod));
  for (const p of world.placed) if (!waiting.has(p)) initial.bind(p);
  const { left, bound } = replay(pending, initial);
  return left.map((p) => violation(p, bound.counts));
}
