import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileSelector,
  LabelSelectorSyntaxError,
  matchesRequirements,
  parseLabelSelectorText,
  type LabelSelector,
} from './label-selector.js';

const key = fc.constantFrom('app', 'tier', 'zone');
const value = fc.constantFrom('a', 'b', 'c');
const expression = fc.record({
  key,
  operator: fc.constantFrom('In' as const, 'NotIn' as const, 'Exists' as const, 'DoesNotExist' as const),
  values: fc.uniqueArray(value, { minLength: 1, maxLength: 3 }),
});
const selector: fc.Arbitrary<LabelSelector> = fc.record({
  matchLabels: fc.dictionary(key, value, { maxKeys: 2 }),
  matchExpressions: fc.array(expression, { maxLength: 3 }),
});
const labels = fc.dictionary(key, value, { maxKeys: 3 });

/** The selector as kubectl would write it in `-l`. */
function asText(s: LabelSelector): string {
  const parts = Object.entries(s.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of s.matchExpressions ?? []) {
    if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
    else parts.push(`${e.key} ${e.operator.toLowerCase()} (${(e.values ?? []).join(',')})`);
  }
  return parts.join(',');
}

describe('label selectors', () => {
  it('select the same labels in their structured and their text form', () => {
    fc.assert(
      fc.property(selector, labels, (s, l) => {
        expect(matchesRequirements(parseLabelSelectorText(asText(s)), l)).toBe(compileSelector(s)(l));
      }),
      { numRuns: 300, seed: 3 },
    );
  });

  it('select nothing when absent (affinity terms) and everything when empty (list queries)', () => {
    expect(compileSelector(undefined)({ app: 'a' })).toBe(false);
    expect(compileSelector({})({ app: 'a' })).toBe(true);
    expect(parseLabelSelectorText('')).toEqual([]);
  });

  it('refuse text kube-apiserver refuses, with its message', () => {
    expect(() => parseLabelSelectorText('app in a')).toThrow(LabelSelectorSyntaxError);
    expect(() => parseLabelSelectorText('app in a')).toThrow(
      "unable to parse requirement: found 'app in a' in label selector 'app in a'",
    );
  });
});
