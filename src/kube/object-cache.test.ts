import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ObjectCache } from './object-cache.js';
import type { KubeObject } from './resources.js';

interface Thing extends KubeObject {
  tags: string[];
}

const thing = (name: string, tags: string[]): Thing => ({
  apiVersion: 'v1',
  kind: 'Thing',
  metadata: { name, namespace: 'default' },
  tags,
});

describe('ObjectCache', () => {
  it('finds by index exactly the cached objects carrying the value, through any sequence of writes and deletes', () => {
    const op = fc.record({
      name: fc.constantFrom('a', 'b', 'c', 'd'),
      tags: fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { maxLength: 3 }),
      remove: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const cache = new ObjectCache<Thing>({ tag: (t) => t.tags });
        for (const o of ops) {
          if (o.remove) cache.delete(`default/${o.name}`);
          else cache.set(thing(o.name, o.tags));
        }
        for (const tag of ['x', 'y', 'z']) {
          const expected = cache
            .list()
            .filter((t) => t.tags.includes(tag))
            .map((t) => t.metadata.name)
            .sort();
          expect(
            cache
              .byIndex('tag', tag)
              .map((t) => t.metadata.name)
              .sort(),
          ).toEqual(expected);
          // The objects found are the latest versions.
          for (const t of cache.byIndex('tag', tag)) expect(cache.get(`default/${t.metadata.name}`)).toBe(t);
        }
      }),
    );
  });
});
