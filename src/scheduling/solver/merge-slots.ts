/**
 * The model of the hostname-aware step (merge.ts, ruin.ts): planned NodeClaims as slots whose pods may move, the
 * rules that say which pods may share a node (hostname spread and anti-affinity with a minimum of zero), and the
 * buckets (NodePool x settled domains) within which pods move.
 */
import type { PodInfo } from '../pod-info.js';
import type { Requirements } from '../requirements/requirements.js';
import type { Resources } from '../resources/resources.js';
import type { TopologyGroup } from '../topology/group.js';
import type { NewBin } from './new-bin.js';
import type { Packing } from './packing.js';
import type { Prices } from './slot-prices.js';

/** What the step's moves share: the slots they may use, the price look-ups and the work left. */
export interface Ctx {
  slots: readonly Slot[];
  prices: Prices;
  budget: { left: number };
}

/** A pod the step may move, with what its hostname rules and domains need. */
export interface Mover {
  pod: PodInfo;
  /** Keys (other than hostname) whose domain the pod must keep. */
  keys: readonly string[];
  /** The domains of `keys` it must keep, joined (its node's when the pass starts). */
  home: string;
  own: readonly TopologyGroup[];
  /** The hostname groups of the pass that select it. */
  hits: Set<TopologyGroup>;
}

/** A planned NodeClaim as the step sees it: its pods, requests, requirements and price while they change. */
export interface Slot {
  bin: NewBin;
  pods: Mover[];
  requests: Resources;
  reqs: Requirements;
  price: number;
  changed: boolean;
  alive: boolean;
  memo: { reqs: Requirements; values: Map<string, string> };
}

/** The one value `reqs` allows for `key`, if settled. */
export function settled(reqs: Requirements, key: string): string | undefined {
  const r = reqs.get(key);
  return r && !r.complement && r.values.size === 1 ? r.any() : undefined;
}

function selects(g: TopologyGroup, m: Mover): boolean {
  return m.hits.has(g);
}

/** The domains `slot` has settled for `keys`, joined as Mover.home (memoised while its requirements stay). */
export function domainsOf(slot: Slot, keys: readonly string[]): string {
  if (slot.memo.reqs !== slot.reqs) slot.memo = { reqs: slot.reqs, values: new Map() };
  const sig = keys.join('\n');
  let v = slot.memo.values.get(sig);
  if (v === undefined) slot.memo.values.set(sig, (v = keys.map((k) => settled(slot.reqs, k) ?? '\u0000').join('\n')));
  return v;
}

/** Pods of `pods` (but `except`) that `g` selects, plus `extra`. */
function countSelected(
  g: TopologyGroup,
  pods: readonly Mover[],
  opts: { except: Mover | undefined; extra: number },
): number {
  let n = opts.extra;
  for (const q of pods) if (q !== opts.except && selects(g, q)) n++;
  return n;
}

/** Whether `m` and `pods` (the pods already on a node, but `except`) allow each other there (hostname minimum zero). */
export function allowed(pods: readonly Mover[], m: Mover, except?: Mover): boolean {
  for (const g of m.own) {
    const spread = g.spec.type === 'spread';
    const n = countSelected(g, pods, { except, extra: spread && selects(g, m) ? 1 : 0 });
    if (n > (spread ? g.spec.maxSkew : 0)) return false;
  }
  for (const q of pods) {
    if (q === except) continue;
    for (const g of q.own) {
      if (!selects(g, m)) continue;
      if (g.spec.type !== 'spread' || countSelected(g, pods, { except, extra: 1 }) > g.spec.maxSkew) return false;
    }
  }
  return true;
}

/**
 * NodeClaims by NodePool and the domains they settled for every key the movers' constraints involve: pods move
 * only within one (a pod free of some key could cross, but on the mixes this pass is for every pod has the zone).
 */
export function bucketsOf(slots: readonly Slot[]): Slot[][] {
  const keys = [...new Set(slots.flatMap((s) => s.pods.flatMap((m) => m.keys)))].sort();
  const out = new Map<string, Slot[]>();
  for (const s of slots) {
    const sig = `${s.bin.template.name}\n${domainsOf(s, keys)}`;
    const list = out.get(sig);
    if (list) list.push(s);
    else out.set(sig, [s]);
  }
  return [...out.values()];
}

function moverOf(pod: PodInfo, bin: NewBin, packing: Packing): Mover | undefined {
  if (pod.hostPorts.length > 0 || pod.volumes.attachments.length > 0) return undefined;
  const rules = packing.ctx.topology.localRules(pod);
  if (!rules) return undefined;
  const keys = [...rules.keys].sort();
  // An unsettled key stands for no domain: such a pod matches no NodeClaim (as repack.ts leaves it alone).
  const home = keys.map((k) => settled(bin.requirements, k) ?? '\u0001').join('\n');
  return { pod, keys, home, own: rules.own, hits: new Set() };
}

/** The planned NodeClaims the step may change (every pod on them movable), priced. */
export function slotsOf(packing: Packing, prices: Prices): Slot[] {
  const slots: Slot[] = [];
  for (const bin of packing.newBins) {
    // A NodePool with limits keeps its packing (as in repack.ts), and so does a NodeClaim under minValues.
    if (bin.template.remaining || [...bin.requirements.values()].some((r) => r.minValues !== undefined)) continue;
    const pods: Mover[] = [];
    for (const pod of bin.pods) {
      const m = moverOf(pod, bin, packing);
      if (m) pods.push(m);
    }
    // A NodeClaim holding a pod that may not move neither gives nor takes pods (that pod's rules are not modelled).
    if (pods.length !== bin.pods.length) continue;
    const price = prices.price(bin.template, bin.requirements, bin.requests);
    slots.push({
      bin,
      pods,
      requests: { ...bin.requests },
      reqs: bin.requirements,
      price,
      changed: false,
      alive: true,
      memo: { reqs: bin.requirements, values: new Map() },
    });
  }
  // Which pods each hostname group of the pass selects, once: the checks below ask it for every candidate node.
  const movers = slots.flatMap((s) => s.pods);
  const groups = [...new Set(movers.flatMap((m) => m.own))];
  for (const m of movers) m.hits = new Set(groups.filter((g) => g.selects(m.pod.namespace, m.pod.labels)));
  return slots;
}
