/**
 * NodeOverlay (karpenter.sh/v1alpha1): what the instance types its requirements select cost and hold, changed
 * before anything prices or packs with them, so the solver, the lower bound and consolidation all see the same
 * prices. Overlays apply highest weight first; at equal weight by name, the first one setting a value winning.
 * Two overlays of equal weight setting different values for the same offering (price) or instance type
 * (a capacity key) conflict: the later one by name is reported with ValidationSucceeded=False.
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

/** Highest weight first, then by name: the order overlays are applied in. */
export function overlayOrder(a: OverlayRule, b: OverlayRule): number {
  return (b.weight ?? 0) - (a.weight ?? 0) || a.name.localeCompare(b.name);
}

interface Claim {
  by: OverlayRule;
  value: string;
}

// Records who set what; a second setter of equal weight and a different value is a conflict.
interface Claims {
  claims: Map<string, Claim>;
  conflicts: Map<string, string>;
}

function claim({ claims, conflicts }: Claims, key: string, rule: OverlayRule, value: string): boolean {
  const held = claims.get(key);
  if (!held) {
    claims.set(key, { by: rule, value });
    return true;
  }
  if ((held.by.weight ?? 0) === (rule.weight ?? 0) && held.value !== value && !conflicts.has(rule.name)) {
    conflicts.set(
      rule.name,
      `conflicts with NodeOverlay ${held.by.name} (same weight ${rule.weight ?? 0}) over ${key}`,
    );
  }
  return false;
}

function overlayOffering(
  o: Offering,
  labels: Record<string, string>,
  rules: readonly OverlayRule[],
  ctx: Claims & { type: string },
): Offering {
  const at = { ...labels, [Labels.zone]: o.zone, [Labels.capacityType]: o.capacityType };
  let price = o.price;
  for (const rule of rules) {
    if ((rule.price === undefined && rule.priceAdjustment === undefined) || !selects(rule, at)) continue;
    const key = `price of ${ctx.type} ${o.capacityType} in ${o.zone}`;
    if (claim(ctx, key, rule, rule.price ?? rule.priceAdjustment ?? '')) price = adjustedPrice(o.price, rule);
  }
  return price === o.price ? o : { ...o, price };
}

function overlayCapacity(
  it: InstanceType,
  labels: Record<string, string>,
  rules: readonly OverlayRule[],
  ctx: Claims,
): ResourceList {
  const added: ResourceList = {};
  for (const rule of rules) {
    if (
      !rule.capacity ||
      !it.offerings.some((o) =>
        selects(rule, { ...labels, [Labels.zone]: o.zone, [Labels.capacityType]: o.capacityType }),
      )
    )
      continue;
    for (const [k, v] of Object.entries(rule.capacity)) {
      if (claim(ctx, `capacity ${k} of ${it.name}`, rule, String(v))) added[k] = String(v);
    }
  }
  return added;
}

/** Applies the overlays to the instance types a NodePool can launch. */
export function applyOverlays(
  types: readonly InstanceType[],
  overlays: readonly OverlayRule[],
  nodePool: string,
): OverlayResult {
  const conflicts = new Map<string, string>();
  const rules = [...overlays].sort(overlayOrder);
  if (rules.length === 0) return { types: [...types], conflicts };
  const out = types.map((it) => {
    const labels = { ...it.labels, [Labels.nodePool]: nodePool };
    const claims = new Map<string, Claim>();
    const offerings = it.offerings.map((o) => overlayOffering(o, labels, rules, { claims, conflicts, type: it.name }));
    const added = overlayCapacity(it, labels, rules, { claims, conflicts });
    const changed = offerings.some((o, i) => o !== it.offerings[i]) || Object.keys(added).length > 0;
    if (!changed) return it;
    return { ...it, offerings, capacity: { ...it.capacity, ...added }, allocatable: { ...it.allocatable, ...added } };
  });
  return { types: out, conflicts };
}
