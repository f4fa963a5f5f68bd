/** Selector terms as EC2 describe filters, and as text for messages that say what matched nothing. */
import type { Filter } from '../ports/index.js';

/** Tag filters of a term: `tag:K=V`, or `tag-key=K` when the value is the wildcard `*`. */
export function tagFilters(tags: Record<string, string> | undefined): Filter[] {
  return Object.entries(tags ?? {}).map(([k, v]) =>
    v === '*' ? { name: 'tag-key', values: [k] } : { name: `tag:${k}`, values: [v] },
  );
}

/** A term as compact text: `tags karpenter.sh/discovery=demo`, `id subnet-123`. */
export function describeTerm(term: Record<string, unknown>): string {
  return Object.entries(term)
    .map(([k, v]) =>
      k === 'tags' && v && typeof v === 'object'
        ? `tags ${Object.entries(v)
            .map(([a, b]) => `${a}=${String(b)}`)
            .join(',')}`
        : `${k} ${String(v)}`,
    )
    .join(' ');
}

/** Every term as text, `[…] or […]`. */
export function describeTerms(terms: ReadonlyArray<Record<string, unknown>>): string {
  return terms.map((t) => `[${describeTerm(t)}]`).join(' or ');
}
