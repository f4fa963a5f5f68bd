import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatResource, isQuantity, parseMilli, parseUnits, resourceValue } from './quantity.js';

describe('quantities', () => {
  it.each([
    ['1', 1000n],
    ['100m', 100n],
    ['0.5', 500n],
    ['.5', 500n],
    ['1.5k', 1_500_000n],
    ['1e3', 1_000_000n],
    ['12E-1', 1200n],
    ['1Ki', 1_024_000n],
    ['+2', 2000n],
    ['-1', -1000n],
    ['1n', 1n], // rounded up to one milli, as the API server does
    ['250u', 1n],
  ])('parses %s to %s milli-units', (q, milli) => {
    expect(parseMilli(q)).toBe(milli);
  });

  it.each([
    ['1Gi', 1073741824n],
    ['1G', 1_000_000_000n],
    ['128974848', 128974848n],
    ['129e6', 129_000_000n],
    ['123Mi', 128974848n],
    ['1.5Gi', 1610612736n],
    ['100m', 1n],
    ['2Ti', 2199023255552n],
  ])('parses %s to %s units', (q, units) => {
    expect(parseUnits(q)).toBe(units);
  });

  it.each(['', 'abc', '1.2.3', '1KiB', '1 Gi', '--1', '1e', 'Mi'])('rejects %j', (q) => {
    expect(isQuantity(q)).toBe(false);
    expect(() => parseMilli(q)).toThrow(/invalid quantity/);
  });

  it('stores cpu in millicores and memory in bytes', () => {
    expect(resourceValue('cpu', '1.5')).toBe(1500);
    expect(resourceValue('memory', '1Mi')).toBe(1048576);
  });

  it('formats values back into quantities that parse to the same integer', () => {
    fc.assert(
      fc.property(fc.constantFrom('cpu', 'memory', 'pods'), fc.integer({ min: 0, max: 2 ** 45 }), (name, v) => {
        expect(resourceValue(name, formatResource(name, v))).toBe(v);
      }),
    );
  });
});
