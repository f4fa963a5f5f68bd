/**
 * NodeOverlay (karpenter.sh/v1alpha1): what the instance types its requirements select cost and hold, changed
 * before anything prices or packs with them, so the solver, the lower bound and consolidation all see the same
 * prices. As Karpenter v1.15: overlays apply highest weight first, at equal weight the name later in the alphabet
 * first; an overlay setting the price of an offering or a capacity key that an overlay of the same weight already
 * set conflicts, whatever the values, and is not applied (ValidationSucceeded=False, reason Conflict).
 */
import {
  Labels,
  type NodeSelectorRequirementWithMinValues as NodeSelectorRequirement,
  type ResourceList,
} from '../../api/index.js';
import { valueSatisfies } from '../../scheduling/rules/labels.js';
import type { InstanceType, Offering } from '../instance-type.js';

/** The parts of a NodeOverlay that change instance types. */
export interface OverlayRule {
  name: string;
  /** Absent is weight 0, below every set weight. */
  weight?: number;
  requirements: NodeSelectorRequirement[];
  price?: string;
  priceAdjustment?: string;
  capacity?: Record<string, string | number>;
}

/** Overlaid instance types, and the overlays that lost a conflict with what they conflicted over. */
export interface OverlayResult {
  types: InstanceType[];
  conflicts: Map<string, string>;
}

/** The price after an overlay: `price` replaces it; `priceAdjustment` adds dollars or a percentage (never below 0). */
export function adjustedPrice(price: number, rule: Pick<OverlayRule, 'price' | 'priceAdjustment'>): number {
  if (rule.price !== undefined) return Number(rule.price);
  const adj = rule.priceAdjustment;
  if (adj === undefined) return price;
  const next = adj.endsWith('%') ? price * (1 + Number(adj.slice(0, -1)) / 100) : price + Number(adj);
  return Math.max(0, next);
}

function selects(rule: OverlayRule, labels: Readonly<Record<string, string>>): boolean {
  return rule.requirements.every((r) => valueSatisfies(r, labels[r.key]));
}

/**
 * The order overlays are applied in (Karpenter v1.15 NodeOverlayList.OrderByWeight): highest weight first; at equal
 * weight the name later in the alphabet first.
 */
export function overlayOrder(a: OverlayRule, b: OverlayRule): number {
  // Byte order, as Go compares strings.
  return (b.weight ?? 0) - (a.weight ?? 0) || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0);
}

/** What an overlay sets on one NodePool's types: offering prices and capacity keys, by a key naming each. */
function keysOf(rule: OverlayRule, types: readonly InstanceType[], nodePool: string): string[] {
  const keys: string[] = [];
  for (const it of types) {
    const labels = { ...it.labels, [Labels.nodePool]: nodePool };
    const selected = it.offerings.filter((o) =>
      selects(rule, { ...labels, [Labels.zone]: o.zone, [Labels.capacityType]: o.capacityType }),
    );
    if (selected.length === 0) continue;
    if (rule.price !== undefined || rule.priceAdjustment !== undefined)
      for (const o of selected) keys.push(priceKey(it.name, o));
    for (const k of Object.keys(rule.capacity ?? {})) keys.push(capacityKey(it.name, k));
  }
  return keys;
}

const priceKey = (type: string, o: Offering): string => `price of ${type} ${o.capacityType} in ${o.zone}`;
const capacityKey = (type: string, resource: string): string => `capacity ${resource} of ${type}`;

/**
 * Which overlay sets each key, as Karpenter's validation builds its store: in order, an overlay setting a key that
 * an overlay of the same weight already set conflicts (whatever the values) and is not applied at all; otherwise
 * it takes every key no heavier overlay holds.
 */
function holders(
  rules: readonly OverlayRule[],
  types: readonly InstanceType[],
  nodePool: string,
): { held: Map<string, OverlayRule>; conflicts: Map<string, string> } {
  const held = new Map<string, OverlayRule>();
  const conflicts = new Map<string, string>();
  for (const rule of rules) {
    const keys = keysOf(rule, types, nodePool);
    const clash = keys.find((k) => (held.get(k)?.weight ?? 0) === (rule.weight ?? 0) && held.has(k));
    if (clash !== undefined) {
      const other = held.get(clash)?.name ?? '';
      conflicts.set(
        rule.name,
        `conflict with another overlay: NodeOverlay ${other} (same weight ${rule.weight ?? 0}) over ${clash}`,
      );
      continue;
    }
    for (const k of keys) if (!held.has(k)) held.set(k, rule);
  }
  return { held, conflicts };
}

/** Applies the overlays to the instance types a NodePool can launch. */
export function applyOverlays(
  types: readonly InstanceType[],
  overlays: readonly OverlayRule[],
  nodePool: string,
): OverlayResult {
  const rules = [...overlays].sort(overlayOrder);
  if (rules.length === 0) return { types: [...types], conflicts: new Map() };
  const { held, conflicts } = holders(rules, types, nodePool);
  const out = types.map((it) => {
    const offerings = it.offerings.map((o) => {
      const rule = held.get(priceKey(it.name, o));
      const price = rule ? adjustedPrice(o.price, rule) : o.price;
      return price === o.price ? o : { ...o, price };
    });
    const added: ResourceList = {};
    for (const [key, rule] of held)
      for (const [k, v] of Object.entries(rule.capacity ?? {}))
        if (key === capacityKey(it.name, k)) added[k] = String(v);
    const changed = offerings.some((o, i) => o !== it.offerings[i]) || Object.keys(added).length > 0;
    if (!changed) return it;
    return { ...it, offerings, capacity: { ...it.capacity, ...added }, allocatable: { ...it.allocatable, ...added } };
  });
  return { types: out, conflicts };
}
