import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinResources } from '../builtin/kinds.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import { Entry, Store } from './store.js';
import type { KObject } from '../types.js';

const info = (plural: string): ResourceInfo => {
  const found = builtinResources().find(
    (r) => r.plural === plural && r.group === (plural === 'replicasets' ? 'apps' : ''),
  );
  if (!found) throw new Error(`no built-in ${plural}`);
  return found;
};

const obj = (name: string, uid: string, rv: number, extra: Partial<KObject> = {}): KObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    ...extra,
    metadata: { name, namespace: 'ns', uid, resourceVersion: String(rv), ...(extra.metadata ?? {}) },
  }) as KObject;

describe('stored entries', () => {
  it('keep the owners, name, namespace and JSON of what was stored, whatever the owner lists', () => {
    const store = new Store();
    const pods = store.table(info('pods'));
    const uid = fc.constantFrom('u1', 'u2', 'u3', 'u4');
    fc.assert(
      fc.property(fc.array(fc.array(uid, { maxLength: 3 }), { minLength: 1, maxLength: 20 }), (lists) => {
        lists.forEach((owners, i) => {
          const o = obj(`p-${i}`, `pod-${i}`, i + 1, {
            metadata: {
              ownerReferences: owners.map((u) => ({ apiVersion: 'v1', kind: 'ReplicaSet', name: u, uid: u })),
            },
          } as Partial<KObject>);
          const e = new Entry(pods, o);
          expect(e.owners ?? []).toEqual(owners);
          expect([e.namespace, e.name, e.field('metadata.name'), e.inNamespace('ns'), e.inNamespace('n')]).toEqual([
            'ns',
            `p-${i}`,
            `p-${i}`,
            true,
            false,
          ]);
          expect(JSON.parse(e.json.toString('utf8'))).toEqual(o);
        });
      }),
    );
  });

  it('share one owner list among the pods of one owner, and the uid strings the owner holds', () => {
    const store = new Store();
    const owner = new Entry(store.table(info('replicasets')), obj('rs', 'rs-uid', 1));
    store.uids.set(owner.uid, owner);
    const pods = store.table(info('pods'));
    const ref = {
      metadata: {
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: ['rs', 'uid'].join('-') }],
      },
    } as Partial<KObject>;
    const a = new Entry(pods, obj('a', 'a-uid', 2, ref));
    const b = new Entry(pods, obj('b', 'b-uid', 3, ref));
    expect(a.owners).toEqual(['rs-uid']);
    expect(a.owners).toBe(b.owners);
    const events = store.table(info('events'));
    const ev = new Entry(events, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'a.1', namespace: 'ns', uid: 'ev', resourceVersion: '4' },
      involvedObject: { kind: 'ReplicaSet', name: 'rs', namespace: 'ns', uid: 'rs-uid' },
      reason: 'Scaled',
      type: 'Normal',
    } as KObject);
    expect([
      ev.field('involvedObject.uid'),
      ev.field('involvedObject.name'),
      ev.field('reason'),
      ev.field('source'),
    ]).toEqual(['rs-uid', 'rs', 'Scaled', '']);
  });
});
