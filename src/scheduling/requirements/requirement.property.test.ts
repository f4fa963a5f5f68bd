/**
 * The requirements algebra with Gte and Lte agrees with a brute-force reading of each operator: what a requirement
 * allows, and what the intersection of two allows, value by value over a domain of integers and non-integers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RequirementOperator } from '../../api/index.js';
import { Requirement } from './requirement.js';

const domain = [...Array.from({ length: 15 }, (_, i) => String(i - 4)), 'a', 'b', '1.5', ''];

interface Spec {
  operator: RequirementOperator;
  values: readonly string[];
}

const bound = fc.integer({ min: -5, max: 11 }).map(String);
const listed = fc.uniqueArray(fc.constantFrom(...domain.filter((v) => v !== '')), { minLength: 1, maxLength: 4 });
const spec: fc.Arbitrary<Spec> = fc.oneof(
  fc.record({ operator: fc.constantFrom<RequirementOperator>('In', 'NotIn'), values: listed }),
  fc.record({ operator: fc.constantFrom<RequirementOperator>('Exists', 'DoesNotExist'), values: fc.constant([]) }),
  fc.record({
    operator: fc.constantFrom<RequirementOperator>('Gt', 'Gte', 'Lt', 'Lte'),
    values: bound.map((b) => [b]),
  }),
);

/** What the operator means for one label value, read straight from the Kubernetes and Karpenter docs. */
function allows(s: Spec, value: string): boolean {
  const n = /^-?\d+$/.test(value) ? Number(value) : undefined;
  const b = Number(s.values[0]);
  switch (s.operator) {
    case 'In':
      return s.values.includes(value);
    case 'NotIn':
      return !s.values.includes(value);
    case 'Exists':
      return true;
    case 'DoesNotExist':
      return false;
    case 'Gt':
      return n !== undefined && n > b;
    case 'Gte':
      return n !== undefined && n >= b;
    case 'Lt':
      return n !== undefined && n < b;
    case 'Lte':
      return n !== undefined && n <= b;
  }
}

const of = (s: Spec): Requirement => Requirement.of('k', s.operator, s.values);

describe('requirement algebra with Gte and Lte (brute force)', () => {
  it('a requirement allows exactly the values its operator does', () => {
    fc.assert(
      fc.property(spec, (s) => {
        for (const v of domain)
          expect(of(s).has(v), `${s.operator} ${s.values.join(',')} on "${v}"`).toBe(allows(s, v));
      }),
    );
  });

  it('an intersection allows exactly the values both requirements allow', () => {
    fc.assert(
      fc.property(spec, spec, (a, b) => {
        const both = of(a).intersect(of(b));
        for (const v of domain) expect(both.has(v), `"${v}"`).toBe(allows(a, v) && allows(b, v));
      }),
      { numRuns: 500 },
    );
  });

  it('intersection is commutative and associative in what it allows', () => {
    fc.assert(
      fc.property(spec, spec, spec, (a, b, c) => {
        const left = of(a).intersect(of(b)).intersect(of(c));
        const right = of(c).intersect(of(b).intersect(of(a)));
        for (const v of domain) expect(left.has(v)).toBe(right.has(v));
      }),
    );
  });

  it('Gte n is Gt n-1 and Lte n is Lt n+1', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 11 }), (n) => {
        for (const v of domain) {
          expect(Requirement.of('k', 'Gte', [String(n)]).has(v)).toBe(
            Requirement.of('k', 'Gt', [String(n - 1)]).has(v),
          );
          expect(Requirement.of('k', 'Lte', [String(n)]).has(v)).toBe(
            Requirement.of('k', 'Lt', [String(n + 1)]).has(v),
          );
        }
      }),
    );
  });
});
