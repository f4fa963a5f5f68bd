import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StringInterner } from './interned-strings.js';

describe('interned strings', () => {
  it('leaves every parsed object equal to what was parsed, however many values the table has seen', () => {
    const interner = new StringInterner();
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify({ metadata: { name: 'a', labels: { v } }, spec: v, list: [v, v] });
        const parsed: unknown = JSON.parse(text);
        interner.internValues(parsed);
        expect(parsed).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });
});
