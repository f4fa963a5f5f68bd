import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isQuantity, scaledQuantity } from '../../api/index.js';
import { nanoOf } from './oracle-amounts.js';

const suffixes = ['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** Legal, non-negative quantity texts in every form: decimals, SI and binary suffixes, exponents. */
const quantityText = fc
  .record({
    sign: fc.constantFrom('', '+'),
    whole: fc.stringMatching(/^\d{0,6}$/),
    frac: fc.option(fc.stringMatching(/^\d{0,4}$/), { nil: undefined }),
    tail: fc.oneof(
      fc.constantFrom(...suffixes),
      fc.integer({ min: -12, max: 12 }).map((e) => `e${e}`),
    ),
  })
  .filter(({ whole, frac }) => whole !== '' || (frac ?? '') !== '')
  .map(({ sign, whole, frac, tail }) => `${sign}${whole}${frac === undefined ? '' : `.${frac}`}${tail}`);

function oracleAccepts(text: string): boolean {
  try {
    nanoOf(text);
    return true;
  } catch {
    return false;
  }
}

// The oracle parses quantities apart from production on purpose; these properties keep the two telling the same
// story, so a disagreement is a bug in one of them and not a difference of opinion.
describe('the oracle and production parse quantities alike', () => {
  it('to the same count of nano-units, rounded up', () => {
    fc.assert(
      fc.property(quantityText, (q) => {
        expect(nanoOf(q)).toBe(scaledQuantity(q, 9));
      }),
    );
  });

  it('accepting and refusing the same texts', () => {
    const chars = fc.constantFrom(...'0123456789.+-eEKMGimkun '.split(''));
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 8 }), (q) => {
        expect(oracleAccepts(q)).toBe(isQuantity(q));
      }),
    );
  });

  it('reading a JSON number as its decimal text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (n) => {
        expect(nanoOf(n)).toBe(scaledQuantity(n, 9));
      }),
    );
  });
});
