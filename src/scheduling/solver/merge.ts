/**
 * The second improvement step, for the NodeClaims repack.ts leaves alone because a pod on them is tied to its node
 * (hostname spread or anti-affinity). With a hostname minimum of zero those constraints only limit which pods may
 * share a node, so a pod may move to another planned NodeClaim of the same NodePool and the same settled domains
 * (zone and any other key its constraints involve) whenever the pods there and the pod itself still allow each
 * other. First NodeClaims are emptied, cheapest first, by moving each pod where it adds least to the price; an
 * emptying is kept when it does not raise the total (it removes a node, and the room it leaves lets later ones pay).
 * Then single pods move or swap between two NodeClaims where that lowers their price (a type one size down, or a
 * cheaper family once the memory-heavy pods gather elsewhere). The pass is bounded and deterministic, and never
 * raises the price: its NodeClaims replace the packing's only when cheaper in total.
 */
import type { Requirements } from '../requirements/requirements.js';
import { WellKnownLabels } from '../requirements/well-known.js';
import { addInto, type Resources } from '../resources/resources.js';
import { allowed, bucketsOf, domainsOf, slotsOf, type Ctx, type Mover, type Slot } from './merge-slots.js';
import { NewBin } from './new-bin.js';
import type { Packing } from './packing.js';
import { binPrice } from './result.js';
import { ruinAndRecreate } from './ruin.js';
import { Prices } from './slot-prices.js';

/**
 * Work (prices looked up, pairs tried) one pass may do: per pod moved, more for small batches, where a solve packs
 * three ways and the pass is a small share of it, than for large ones, where the greedy packing is the budget to
 * stay near (a few tens of milliseconds at 5,000 pods). Most of the gain comes early; on catalogs priced linearly in
 * size, moves keep finding crumbs.
 */
const BudgetPerPod = { small: 200, large: 10 };
/** Batches up to this many movable pods count as small (solve.ts's PortfolioMaxPods). */
const SmallBatch = 600;
const BudgetCap = 200_000;
/**
 * Ruin and recreate (ruin.ts), small batches only: ruins per pod moved, and price look-ups per pod (a ruin of a few
 * NodeClaims refills a few tens of pods, each priced on the NodeClaims its domains allow). Most of the gain comes in
 * the first few hundred ruins; this is about as much again as the rest of a small solve.
 */
const RuinsPerPod = 5;
const RuinBudgetPerPod = 3000;
const RuinBudgetCap = 1_500_000;
/** Rounds of emptyings then exchanges. */
const Rounds = 3;
/** Failed emptyings in a row after which a bucket's remaining NodeClaims are not tried. */
const MaxFailures = 32;

interface Move {
  to: Slot;
  reqs: Requirements;
  price: number;
}

/** Where `m` (on `from`) adds least to the price, or undefined. */
function bestMove(
  m: Mover,
  from: Slot,
  ctx: { slots: readonly Slot[]; prices: Prices; budget: { left: number } },
): Move | undefined {
  let best: (Move & { added: number }) | undefined;
  for (const to of ctx.slots) {
    if (to === from || !to.alive || to.bin.template !== from.bin.template) continue;
    if (--ctx.budget.left < 0) return undefined;
    if (domainsOf(to, m.keys) !== m.home) continue;
    if (to.reqs.compatible(m.pod.requirements, WellKnownLabels) !== undefined || !allowed(to.pods, m)) continue;
    const reqs = m.pod.requirements.size === 0 ? to.reqs : to.reqs.copy().addAll(m.pod.requirements);
    const price = ctx.prices.price(to.bin.template, reqs, to.requests, { add: m.pod.requests, sub: undefined });
    const cand = { to, reqs, price, added: price - to.price };
    if (Number.isFinite(price) && (!best || betterMove(cand, best))) best = cand;
  }
  return best;
}

/** Less added price; ties go to the fuller NodeClaim, which leaves the roomier ones for pods still to move. */
function betterMove(a: Move & { added: number }, b: Move & { added: number }): boolean {
  if (Math.abs(a.added - b.added) > 1e-12) return a.added < b.added;
  return (a.to.requests['cpu'] ?? 0) > (b.to.requests['cpu'] ?? 0);
}

function apply(m: Mover, move: Move): void {
  const to = move.to;
  to.pods.push(m);
  addInto(to.requests, m.pod.requests);
  to.reqs = move.reqs;
  to.price = move.price;
  to.changed = true;
}

interface Saved {
  pods: number;
  requests: Resources;
  reqs: Requirements;
  price: number;
  changed: boolean;
}

function restore(saved: ReadonlyMap<Slot, Saved>): void {
  for (const [slot, x] of saved) {
    slot.pods.length = x.pods;
    for (const k in slot.requests) if (!(k in x.requests)) delete slot.requests[k];
    Object.assign(slot.requests, x.requests);
    slot.reqs = x.reqs;
    slot.price = x.price;
    slot.changed = x.changed;
  }
}

/** Moves every pod of `from` elsewhere when that does not raise the price; true when it did. */
function empty(from: Slot, ctx: { slots: readonly Slot[]; prices: Prices; budget: { left: number } }): boolean {
  // The most constrained first (a failing emptying fails early), then the largest.
  const order = [...from.pods].sort(
    (a, b) =>
      b.own.length - a.own.length ||
      (b.pod.requests['cpu'] ?? 0) - (a.pod.requests['cpu'] ?? 0) ||
      a.pod.index - b.pod.index,
  );
  from.alive = false;
  const saved = new Map<Slot, Saved>();
  let delta = -from.price;
  for (const m of order) {
    const move = bestMove(m, from, ctx);
    if (!move || delta + move.price - move.to.price > 1e-9) {
      restore(saved);
      from.alive = true;
      return false;
    }
    delta += move.price - move.to.price;
    const to = move.to;
    if (!saved.has(to))
      saved.set(to, {
        pods: to.pods.length,
        requests: { ...to.requests },
        reqs: to.reqs,
        price: to.price,
        changed: to.changed,
      });
    apply(m, move);
  }
  // Emptied: the ruin-and-recreate pass (ruin.ts) may start it afresh.
  for (const m of order)
    for (const k in m.pod.requests) from.requests[k] = (from.requests[k] ?? 0) - (m.pod.requests[k] ?? 0);
  from.pods = [];
  from.price = 0;
  return true;
}

/** Rounds of pair exchanges at most (each pass over all pairs; most gains come in the first). */
const ExchangeRounds = 4;
/** Partners tried for each NodeClaim in a round (the next ones in its bucket). */
const Window = 32;

/** Whether `add` (now on `from`) may join `slot` in place of `out`; the requirements it would have, or undefined. */
function admits(slot: Slot, add: Mover, ctx: { from: Slot; out: Mover | undefined }): Requirements | undefined {
  if (domainsOf(slot, add.keys) !== add.home) return undefined;
  if (!allowed(slot.pods, add, ctx.out)) return undefined;
  if (add.pod.requirements.size === 0) return slot.reqs;
  if (slot.reqs.compatible(add.pod.requirements, WellKnownLabels) !== undefined) return undefined;
  return slot.reqs.copy().addAll(add.pod.requirements);
}

function replacePod(
  slot: Slot,
  change: { out?: Mover; add?: Mover },
  after: { price: number; reqs: Requirements },
): void {
  const { out, add } = change;
  if (out) {
    slot.pods.splice(slot.pods.indexOf(out), 1);
    for (const k in out.pod.requests) slot.requests[k] = (slot.requests[k] ?? 0) - (out.pod.requests[k] ?? 0);
  }
  if (add) {
    slot.pods.push(add);
    addInto(slot.requests, add.pod.requests);
  }
  slot.reqs = after.reqs;
  slot.price = after.price;
  slot.changed = true;
  if (slot.pods.length === 0) slot.alive = false;
}

/** Price of `slot` after `out` leaves and `add` joins with requirements `reqs` (0 when it empties). */
function priceAfter(
  slot: Slot,
  change: { out: Mover | undefined; add: Mover | undefined; reqs: Requirements },
  ctx: Ctx,
): number {
  if (!change.add && slot.pods.length === 1) return 0;
  ctx.budget.left--;
  return ctx.prices.price(slot.bin.template, change.reqs, slot.requests, {
    add: change.add?.pod.requests,
    sub: change.out?.pod.requests,
  });
}

/** A pod's cpu in cores plus its memory in units of 4 GiB: a rough size for gathering. */
function size(r: Resources): number {
  return (r['cpu'] ?? 0) / 1000 + (r['memory'] ?? 0) / 4 / 2 ** 30;
}

/**
 * Whether a change at the same price gathers the pods onto the fuller NodeClaim (the sum of squared sizes grows):
 * it leaves the other one emptier, for a later emptying or a smaller type. The sum grows strictly, so such changes
 * cannot cycle.
 */
function gathers(a: Slot, b: Slot, moved: { p: Mover | undefined; q: Mover | undefined }): boolean {
  const d = (moved.p ? size(moved.p.pod.requests) : 0) - (moved.q ? size(moved.q.pod.requests) : 0);
  const sa = size(a.requests);
  const sb = size(b.requests);
  return (sa - d) ** 2 + (sb + d) ** 2 > sa ** 2 + sb ** 2 + 1e-9;
}

/** Tries `p` from a to b and `q` from b to a (either may be absent); true when that lowered the price and was done. */
function tryChange(a: Slot, b: Slot, moved: { p: Mover | undefined; q: Mover | undefined }, ctx: Ctx): boolean {
  const { p, q } = moved;
  ctx.budget.left--;
  const ra = q ? admits(a, q, { from: b, out: p }) : a.reqs;
  if (!ra) return false;
  const rb = p ? admits(b, p, { from: a, out: q }) : b.reqs;
  if (!rb) return false;
  const base = a.price + b.price;
  const na = priceAfter(a, { out: p, add: q, reqs: ra }, ctx);
  if (!(na < base - 1e-9)) return false;
  const nb = priceAfter(b, { out: q, add: p, reqs: rb }, ctx);
  if (!(na + nb < base - 1e-9) && !(na + nb <= base + 1e-9 && gathers(a, b, moved))) return false;
  replacePod(a, { out: p, add: q }, { price: na, reqs: ra });
  replacePod(b, { out: q, add: p }, { price: nb, reqs: rb });
  return true;
}

/**
 * The pods whose leaving lowers `a`'s price. A move or swap can only pay if one of its two NodeClaims gets cheaper,
 * and a NodeClaim whose price no single pod's leaving lowers never does (a pod coming in only adds).
 */
function reducers(a: Slot, ctx: Ctx): Mover[] {
  return a.pods.filter((p) => priceAfter(a, { out: p, add: undefined, reqs: a.reqs }, ctx) < a.price - 1e-9);
}

/**
 * Moves a pod out of the `i`-th NodeClaim of `bucket`, or swaps it, where that lowers the price of it and its
 * partner; true when it did. Partners are the next few NodeClaims of the bucket (cyclically), so large batches
 * cost a bounded amount per NodeClaim.
 */
function improveFrom(bucket: readonly Slot[], i: number, ctx: Ctx): boolean {
  const a = bucket[i] as Slot;
  const n = bucket.length;
  for (const p of reducers(a, ctx)) {
    for (let k = 1; k < n && k <= Window; k++) {
      const b = bucket[(i + k) % n] as Slot;
      if (!b.alive) continue;
      if (ctx.budget.left <= 0) return false;
      if (tryChange(a, b, { p, q: undefined }, ctx)) return true;
      for (const q of b.pods) if (tryChange(a, b, { p, q }, ctx)) return true;
    }
  }
  return false;
}

/** Rounds of moves and swaps within each bucket, until a round finds nothing or the budget runs out; true if any. */
function exchanges(buckets: readonly Slot[][], ctx: Ctx): boolean {
  let any = false;
  for (let round = 0; round < ExchangeRounds; round++) {
    let improved = false;
    for (const bucket of buckets) {
      for (let i = 0; i < bucket.length; i++) {
        if (ctx.budget.left <= 0) return any;
        if (bucket[i]?.alive && improveFrom(bucket, i, ctx)) improved = any = true;
      }
    }
    if (!improved) break;
  }
  return any;
}

/** Empties the NodeClaims of one bucket it can, cheapest first; how many it emptied. */
function emptyBucket(bucket: readonly Slot[], ctx: Ctx): number {
  const order = bucket
    .filter((s) => s.alive)
    .sort((a, b) => a.price - b.price || a.pods.length - b.pods.length || (a.bin.hostname < b.bin.hostname ? -1 : 1));
  // Cheapest first: past a run of failures the NodeClaims left are fuller and dearer, and rarely empty.
  let failures = 0;
  let emptied = 0;
  for (const slot of order) {
    if (ctx.budget.left <= 0 || failures >= MaxFailures) break;
    if (empty(slot, ctx)) {
      emptied++;
      failures = 0;
    } else failures++;
  }
  return emptied;
}

/** Empties planned NodeClaims into others where the hostname constraints allow and the price does not rise. */
export function merge(packing: Packing, opts: { ruin: boolean } = { ruin: true }): void {
  const prices = new Prices(packing.ctx.cache);
  const slots = slotsOf(packing, prices);
  // Without a hostname constraint among them the NodeClaims are repack.ts's (which packs such groups exactly).
  if (!slots.some((s) => s.pods.some((m) => m.own.length > 0))) return;
  const buckets = bucketsOf(slots);
  const movers = slots.reduce((n, s) => n + s.pods.length, 0);
  const before = slots.reduce((t, s) => t + s.price, 0);
  const budget = {
    left: Math.min(BudgetCap, movers * (movers <= SmallBatch ? BudgetPerPod.small : BudgetPerPod.large)),
  };
  for (let round = 0; round < Rounds && budget.left > 0; round++) {
    const emptied = buckets.reduce((n, bucket) => n + emptyBucket(bucket, { slots: bucket, prices, budget }), 0);
    // Moves and swaps leave room elsewhere: another round of emptyings may use it.
    if (!exchanges(buckets, { slots, prices, budget }) && emptied === 0) break;
  }
  if (opts.ruin && movers <= SmallBatch) {
    budget.left = Math.min(RuinBudgetCap, movers * RuinBudgetPerPod);
    ruinAndRecreate(buckets, { slots, prices, budget }, movers * RuinsPerPod);
  }
  // Price-neutral changes alone are not worth rebuilding NodeClaims for.
  if (slots.reduce((t, s) => t + (s.alive ? s.price : 0), 0) >= before - 1e-9) return;
  const old = slots.filter((s) => s.changed || !s.alive);
  const fresh = old
    .filter((s) => s.alive)
    .map((s) =>
      NewBin.rebuilt(s.bin.template, s.bin.hostname, {
        requirements: s.reqs,
        options: prices.options(s.bin.template, s.reqs, s.requests),
        pods: s.pods.map((m) => m.pod),
      }),
    );
  const sum = (bins: readonly NewBin[]): number =>
    bins.reduce((t, b) => t + (binPrice(b) ?? Number.POSITIVE_INFINITY), 0);
  if (sum(fresh) < sum(old.map((s) => s.bin)) - 1e-9)
    packing.replaceBins(
      old.map((s) => s.bin),
      fresh,
    );
}
