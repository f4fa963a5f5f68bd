import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeSorted, SortedKeys } from './sorted-keys.js';

describe('sorted keys kept up to date', () => {
  it('equal the sorted key set after any sequence of adds, removes, reads and resets', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), key: fc.string({ maxLength: 3 }) }),
      fc.record({ kind: fc.constant('remove' as const), key: fc.string({ maxLength: 3 }) }),
      fc.record({ kind: fc.constant('read' as const) }),
      fc.record({ kind: fc.constant('reset' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const set = new Set<string>();
        const sorted = new SortedKeys(() => set.keys());
        const handedOut: Array<{ array: readonly string[]; copy: string[] }> = [];
        for (const o of ops) {
          if (o.kind === 'add' && !set.has(o.key)) {
            set.add(o.key);
            sorted.add(o.key);
          } else if (o.kind === 'remove' && set.delete(o.key)) {
            sorted.remove(o.key);
          } else if (o.kind === 'read') {
            const array = sorted.keys();
            expect(array).toEqual([...set].sort());
            handedOut.push({ array, copy: [...array] });
          } else if (o.kind === 'reset') {
            sorted.reset();
          }
        }
        expect(sorted.keys()).toEqual([...set].sort());
        // Arrays handed out earlier are never changed under their holders (a list page may still walk one).
        for (const h of handedOut) expect(h.array).toEqual(h.copy);
      }),
    );
  });

  it('merges two sorted lists', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), fc.array(fc.string()), (a, b) => {
        expect(mergeSorted([...a].sort(), [...b].sort())).toEqual([...a, ...b].sort());
      }),
    );
  });
});
