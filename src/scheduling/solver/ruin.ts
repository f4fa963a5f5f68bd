/**
 * Ruin and recreate, the last part of the hostname-aware step (merge.ts): single-pod moves and swaps stop at a local
 * optimum where a cheaper fleet needs several pods to change node at once (a type one size down on one node only
 * once three others each take a pod). So, many times over: take every pod off a few NodeClaims of one bucket, put
 * each back (the most constrained and largest first) where it adds least to the price, the emptied NodeClaims
 * included, and keep the result when the bucket's price did not rise (sideways steps let the search move on). The
 * NodeClaims are drawn by a fixed pseudo-random sequence, so the pass is deterministic; it is bounded by the same
 * price look-up budget as the rest of the step.
 */
import { WellKnownLabels } from '../requirements/well-known.js';
import { addInto, type Resources } from '../resources/resources.js';
import { allowed, domainsOf, type Ctx, type Mover, type Slot } from './merge-slots.js';

/** A deterministic stream of numbers in [0, 1) (mulberry32) for the pass's choices. */
class Stream {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

/** NodeClaims ruined at once: fewer rarely frees enough room, more rebuilds what a greedy refill packs worse. */
const MinRuined = 3;
const MaxRuined = 6;
/** How much the refill order may be shuffled, as a share of a pod's size. */
const OrderNoise = 0.3;
/** Share of ruins refilled over the whole NodePool rather than the first NodeClaim's bucket. */
const WideShare = 0.25;
/** In a wide ruin, the chance each further NodeClaim comes from the first one's bucket. */
const NearShare = 0.7;

interface Saved {
  pods: Mover[];
  requests: Resources;
  reqs: Slot['reqs'];
  price: number;
  changed: boolean;
  alive: boolean;
}

function save(slot: Slot): Saved {
  return {
    pods: [...slot.pods],
    requests: { ...slot.requests },
    reqs: slot.reqs,
    price: slot.price,
    changed: slot.changed,
    alive: slot.alive,
  };
}

function restore(slot: Slot, s: Saved): void {
  slot.pods = s.pods;
  slot.requests = s.requests;
  slot.reqs = s.reqs;
  slot.price = s.price;
  slot.changed = s.changed;
  slot.alive = s.alive;
}

/** A pod's cpu in cores plus its memory in units of 4 GiB, for the refill order. */
function size(r: Resources): number {
  return (r['cpu'] ?? 0) / 1000 + (r['memory'] ?? 0) / 4 / 2 ** 30;
}

/** Where among `bucket` (NodeClaims in its domains) `m` adds least to the price (an empty one starts at zero). */
function cheapestPlace(m: Mover, bucket: readonly Slot[], ctx: Ctx): { to: Slot; price: number } | undefined {
  let best: { to: Slot; price: number; added: number } | undefined;
  for (const to of bucket) {
    if (!allowed(to.pods, m)) continue;
    if (m.pod.requirements.size > 0 && to.reqs.compatible(m.pod.requirements, WellKnownLabels) !== undefined) continue;
    ctx.budget.left--;
    const reqs = m.pod.requirements.size === 0 ? to.reqs : to.reqs.copy().addAll(m.pod.requirements);
    // A pod joining a NodeClaim never makes it cheaper: types below its price need not be looked at.
    const floor = to.pods.length === 0 ? 0 : to.price;
    const price = ctx.prices.price(to.bin.template, reqs, to.requests, {
      add: m.pod.requests,
      sub: undefined,
      atLeast: floor,
    });
    if (!Number.isFinite(price)) continue;
    const added = price - (to.pods.length === 0 ? 0 : to.price);
    // Ties go to the fuller NodeClaim, which leaves the roomier ones for the pods still to come.
    if (
      !best ||
      added < best.added - 1e-12 ||
      (added <= best.added + 1e-12 && (to.requests['cpu'] ?? 0) > (best.to.requests['cpu'] ?? 0))
    )
      best = { to, price, added };
  }
  return best;
}

function put(m: Mover, to: Slot, price: number): void {
  if (m.pod.requirements.size > 0) to.reqs = to.reqs.copy().addAll(m.pod.requirements);
  to.pods.push(m);
  addInto(to.requests, m.pod.requests);
  to.price = price;
  to.alive = true;
  to.changed = true;
}

function takeAll(slot: Slot): Mover[] {
  const out = slot.pods;
  for (const m of out)
    for (const k in m.pod.requests) slot.requests[k] = (slot.requests[k] ?? 0) - (m.pod.requests[k] ?? 0);
  slot.pods = [];
  slot.price = 0;
  slot.alive = false;
  slot.changed = true;
  return out;
}

/** One ruin of the NodeClaims `ruined` of `pool` (one NodePool's) and its refill; true when kept. */
function attempt(pool: readonly Slot[], ruined: ReadonlySet<Slot>, ctx: Ctx, rng: Stream): boolean {
  const saved = new Map<Slot, Saved>();
  const touch = (slot: Slot): Slot => {
    if (!saved.has(slot)) saved.set(slot, save(slot));
    return slot;
  };
  const before = pool.reduce((t, s) => t + (s.alive ? s.price : 0), 0);
  const keyed = [...ruined]
    .flatMap((slot) => takeAll(touch(slot)))
    .map((m) => ({ m, key: size(m.pod.requests) * (1 + OrderNoise * (rng.next() - 0.5)) }));
  // The most constrained first (they have the fewest places), then the largest.
  keyed.sort((a, b) => b.m.own.length - a.m.own.length || b.key - a.key || a.m.pod.index - b.m.pod.index);
  // The NodeClaims in each pod's domains, found once per distinct need.
  const homes = new Map<string, Slot[]>();
  const within = (m: Mover): readonly Slot[] => {
    if (m.keys.length === 0) return pool;
    const sig = `${m.keys.join('\n')}\t${m.home}`;
    let list = homes.get(sig);
    if (!list) homes.set(sig, (list = pool.filter((s) => domainsOf(s, m.keys) === m.home)));
    return list;
  };
  let ok = true;
  for (const { m } of keyed) {
    const place = ctx.budget.left > 0 ? cheapestPlace(m, within(m), ctx) : undefined;
    if (!place) {
      ok = false;
      break;
    }
    put(m, touch(place.to), place.price);
  }
  const after = pool.reduce((t, s) => t + (s.alive ? s.price : 0), 0);
  if (ok && after <= before + 1e-9) return true;
  for (const [slot, x] of saved) restore(slot, x);
  return false;
}

/** `k` distinct NodeClaims of `from`, drawn. */
function draw(from: readonly Slot[], k: number, rng: Stream, first: Slot): Set<Slot> {
  const out = new Set([first]);
  while (out.size < Math.min(k, from.length)) out.add(from[rng.int(from.length)] as Slot);
  return out;
}

/**
 * Ruins and refills NodeClaims `rounds` times, while the budget lasts. Each time a NodeClaim is drawn and a few more
 * with it. Most ruins stay in its bucket (same NodePool and settled domains); a share are wide: the others come
 * from its bucket or anywhere in its NodePool, and the pods go back anywhere in the NodePool their domains allow (a
 * pod free of the zone may change zone), which a refill within one bucket cannot find.
 */
export function ruinAndRecreate(buckets: readonly (readonly Slot[])[], ctx: Ctx, rounds: number): void {
  const rng = new Stream(0x5eed);
  const pools = new Map<Slot['bin']['template'], Slot[]>();
  const bucketOf = new Map<Slot, readonly Slot[]>();
  for (const b of buckets)
    for (const s of b) {
      bucketOf.set(s, b);
      const pool = pools.get(s.bin.template);
      if (pool) pool.push(s);
      else pools.set(s.bin.template, [s]);
    }
  const all = buckets.flat();
  for (let i = 0; i < rounds && ctx.budget.left > 0; i++) {
    const alive = all.filter((s) => s.alive);
    const first = alive[rng.int(alive.length)];
    if (!first) return;
    const bucket = bucketOf.get(first) ?? [first];
    const pool = pools.get(first.bin.template) ?? [first];
    const k = MinRuined + rng.int(MaxRuined - MinRuined + 1);
    const near = bucket.filter((s) => s.alive);
    if (rng.next() >= WideShare) {
      if (near.length >= 2) attempt(bucket, draw(near, k, rng, first), ctx, rng);
      continue;
    }
    const wide = pool.filter((s) => s.alive);
    if (wide.length < 2) continue;
    const ruined = new Set([first]);
    while (ruined.size < Math.min(k, wide.length)) {
      const from = rng.next() < NearShare && near.length > 1 ? near : wide;
      ruined.add(from[rng.int(from.length)] as Slot);
    }
    attempt(pool, ruined, ctx, rng);
  }
}
