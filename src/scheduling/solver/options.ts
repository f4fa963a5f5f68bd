/**
 * Instance-type filtering for planned NodeClaims: which options still fit the requests, intersect the
 * requirements and have an offering those requirements allow; and Karpenter's minValues check.
 */
import { offeringAllowed, type InstanceTypeInfo } from '../instance-types.js';
import type { Requirements } from '../requirements/requirements.js';
import { fitsIn, type Resources } from '../resources/resources.js';

/**
 * Options of `options` that fit `requests` and (when `checkRequirements`) the requirements; the same array when
 * none drops out, so callers can skip recomputing what depends on it.
 */
export function filterOptions(
  options: readonly InstanceTypeInfo[],
  opts: { requests: Resources; requirements: Requirements; checkRequirements: boolean },
): InstanceTypeInfo[] {
  const out: InstanceTypeInfo[] = [];
  for (const it of options) {
    if (!fitsIn(opts.requests, it.allocatable)) continue;
    if (opts.checkRequirements) {
      if (it.requirements.intersects(opts.requirements) !== undefined) continue;
      if (!it.offerings.some((o) => offeringAllowed(o, opts.requirements))) continue;
    }
    out.push(it);
  }
  return out.length === options.length ? (options as InstanceTypeInfo[]) : out;
}

/** A message when some requirement's minValues is not met by the distinct values the options offer. */
export function minValuesFailure(options: readonly InstanceTypeInfo[], reqs: Requirements): string | undefined {
  for (const r of reqs.values()) {
    if (r.minValues === undefined) continue;
    const seen = new Set<string>();
    for (const it of options) {
      const v = it.requirements.get(r.key);
      if (!v || v.complement) continue;
      for (const x of v.values) if (r.has(x)) seen.add(x);
    }
    if (seen.size < r.minValues) {
      return `minValues requirement not met: ${r.key} needs ${r.minValues} values, the fitting instance types offer ${seen.size}`;
    }
  }
  return undefined;
}
