import { describe, expect, test } from 'vitest';
import type { CapacityBuffer } from '../../api/index.js';
import type { Scalable } from '../../state/informers.js';
import { resolveBuffer, unitsWithinLimits, virtualPods } from './resolve.js';

const web: Scalable = {
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    replicas: 10,
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', resources: { requests: { cpu: '500m', memory: '1Gi' } } }] },
    },
  },
};
const buffer = (spec: CapacityBuffer['spec']): CapacityBuffer => ({
  metadata: { name: 'headroom', namespace: 'shop' },
  spec,
});
const ref = { apiGroup: 'apps', kind: 'Deployment', name: 'web' };

describe('CapacityBuffer resolution', () => {
  test('replicas units of the scalable object pod shape', () => {
    expect(resolveBuffer(buffer({ scalableRef: ref, replicas: 3 }), web)).toMatchObject({ ok: true, replicas: 3 });
  });

  test('percentage of the scalable object replicas, rounded up', () => {
    expect(resolveBuffer(buffer({ scalableRef: ref, percentage: 25 }), web)).toMatchObject({ ok: true, replicas: 3 });
  });

  test('limits lower the units to what fits them, per resource', () => {
    expect(
      resolveBuffer(buffer({ scalableRef: ref, replicas: 8, limits: { cpu: '2', memory: '3Gi' } }), web),
    ).toMatchObject({ ok: true, replicas: 3 });
    expect(resolveBuffer(buffer({ scalableRef: ref, limits: { cpu: '2' } }), web)).toMatchObject({
      ok: true,
      replicas: 4,
    });
    expect(unitsWithinLimits({ 'nvidia.com/gpu': 1 }, { cpu: '500' })).toBe(Number.POSITIVE_INFINITY);
  });

  test('a missing scalable object or a pod template reference cannot be provisioned, and says why', () => {
    expect(resolveBuffer(buffer({ scalableRef: ref, replicas: 1 }), undefined)).toEqual({
      ok: false,
      reason: 'ScalableNotFound',
      message: 'Deployment web not found in namespace shop',
    });
    expect(resolveBuffer(buffer({ podTemplateRef: { name: 't' }, replicas: 1 }), undefined)).toMatchObject({
      ok: false,
      reason: 'PodTemplateNotSupported',
    });
  });

  test('virtual pods are pending copies of the template, unbound, named after the buffer', () => {
    const r = resolveBuffer(buffer({ scalableRef: ref, replicas: 2 }), web);
    if (!r.ok) throw new Error('resolved');
    const pods = virtualPods(buffer({ scalableRef: ref, replicas: 2 }), r);
    expect(pods.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual([
      'shop/capacitybuffer-headroom-0',
      'shop/capacitybuffer-headroom-1',
    ]);
    expect(
      pods.every((p) => p.spec.nodeName === undefined && p.spec.containers[0]?.resources?.requests?.cpu === '500m'),
    ).toBe(true);
  });
});
