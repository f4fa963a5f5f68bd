/**
 * Label selectors (metav1.LabelSelector) compiled once into predicates.
 */
import type { LabelSelector } from './model.js';

/** A compiled selector. */
export type LabelMatcher = (labels: Readonly<Record<string, string>> | undefined) => boolean;

/** Compiles a selector; an absent selector matches nothing (as in pod affinity terms), an empty one everything. */
export function compileSelector(selector: LabelSelector | undefined): LabelMatcher {
  if (!selector) return () => false;
  const exprs = [
    ...Object.entries(selector.matchLabels ?? {}).map(([key, v]) => ({ key, operator: 'In' as const, values: [v] })),
    ...(selector.matchExpressions ?? []),
  ];
  return (labels) => {
    const l = labels ?? {};
    for (const e of exprs) {
      const v = l[e.key];
      switch (e.operator) {
        case 'In':
          if (v === undefined || !(e.values ?? []).includes(v)) return false;
          break;
        case 'NotIn':
          if (v !== undefined && (e.values ?? []).includes(v)) return false;
          break;
        case 'Exists':
          if (v === undefined) return false;
          break;
        case 'DoesNotExist':
          if (v !== undefined) return false;
          break;
      }
    }
    return true;
  };
}

/** A stable text form of a selector, for hashing topology groups. */
export function selectorKey(selector: LabelSelector | undefined): string {
  if (!selector) return '<none>';
  const labels = Object.entries(selector.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const exprs = (selector.matchExpressions ?? []).map(
    (e) => `${e.key} ${e.operator} ${[...(e.values ?? [])].sort().join(',')}`,
  );
  return JSON.stringify([labels, exprs.sort()]);
}
