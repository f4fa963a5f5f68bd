/**
 * Karpenter's filterOutSameType for multi-node commands: when a replacement could be of a type that one of the
 * candidates already is, only options strictly cheaper than the cheapest such candidate are kept. Otherwise
 * "replace three m5.large with one m5.large" would pass for a consolidation when deleting two of them moves
 * fewer pods for the same saving. A command left with no option is no command.
 */
import { Labels } from '../../../api/index.js';
import type { Command } from '../types.js';
import { narrowed, requirementsOf, type Pricing } from './pricing.js';
import { describe } from './summary.js';

/** The command with its replacement's same-type options filtered; undefined when none is left. */
export function withoutSameType(cmd: Command, pricing: Pricing): Command | undefined {
  const planned = cmd.replacements[0];
  if (!planned) return cmd;
  const priceByType = new Map<string, number>();
  for (const c of cmd.candidates) {
    const type = c.node.labels[Labels.instanceType];
    if (type === undefined || c.node.price === undefined) continue;
    priceByType.set(type, Math.min(priceByType.get(type) ?? Number.POSITIVE_INFINITY, c.node.price));
  }
  let maxPrice = Number.POSITIVE_INFINITY;
  for (const name of planned.instanceTypeOptions)
    maxPrice = Math.min(maxPrice, priceByType.get(name) ?? Number.POSITIVE_INFINITY);
  if (maxPrice === Number.POSITIVE_INFINITY) return cmd;
  const reqs = requirementsOf(planned);
  const options = pricing.options(planned, reqs).filter((o) => o.price < maxPrice);
  if (options.length === 0) return undefined;
  const replacement = narrowed(planned, reqs, options);
  const out: Command = { ...cmd, replacements: [replacement], costAfter: replacement.cheapest.price };
  out.summary = describe(out);
  return out;
}
