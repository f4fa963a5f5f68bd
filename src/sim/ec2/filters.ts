/** EC2 describe-filter matching for the simulated account (`tag:K`, `tag-key`, ids, names, with `*` wildcards). */
import type { Filter, Tags } from '../../providers/aws/ports/index.js';

/** A resource as filters see it: its tags and the plain attributes filters can name. */
export interface Filterable {
  tags: Tags;
  attributes: Record<string, string | undefined>;
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

/** True when `value` matches any of `patterns` (EC2 filters accept `*` and `?` wildcards). */
export function matchesAny(value: string | undefined, patterns: readonly string[]): boolean {
  if (value === undefined) return false;
  return patterns.some((p) => (p.includes('*') || p.includes('?') ? globToRegExp(p).test(value) : p === value));
}

function matchesFilter(r: Filterable, f: Filter): boolean {
  if (f.name === 'tag-key') return Object.keys(r.tags).some((k) => matchesAny(k, f.values));
  if (f.name.startsWith('tag:')) return matchesAny(r.tags[f.name.slice(4)], f.values);
  return matchesAny(r.attributes[f.name], f.values);
}

/** True when the resource satisfies every filter (EC2 ANDs filters and ORs the values of one filter). */
export function matchesFilters(r: Filterable, filters: readonly Filter[]): boolean {
  return filters.every((f) => matchesFilter(r, f));
}
