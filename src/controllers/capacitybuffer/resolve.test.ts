import { describe, expect, test } from 'vitest';
import type { CapacityBuffer } from '../../api/index.js';
import { resolveBuffer, unitsWithinLimits, virtualPods, type BufferSource } from './resolve.js';

const shape = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', resources: { requests: { cpu: '500m', memory: '1Gi' } } }] },
};
/** The web Deployment of 10 replicas, as the source lookup finds it. */
const web: BufferSource = { ok: true, template: shape, scalableReplicas: 10 };
const template: BufferSource = { ok: true, template: shape };
const buffer = (spec: CapacityBuffer['spec']): CapacityBuffer => ({
  metadata: { name: 'headroom', namespace: 'shop' },
  spec,
});
const ref = { apiGroup: 'apps', kind: 'Deployment', name: 'web' };
const count = (spec: CapacityBuffer['spec'], source: BufferSource = web): number | string => {
  const r = resolveBuffer(buffer(spec), source);
  return r.ok ? r.replicas : r.message;
};

describe('CapacityBuffer resolution (the cluster-autoscaler translators)', () => {
  test('replicas units of the scalable object pod shape', () => {
    expect(count({ scalableRef: ref, replicas: 3 })).toBe(3);
  });

  test('percentage of the scalable object replicas, rounded down', () => {
    expect(count({ scalableRef: ref, percentage: 25 })).toBe(2);
    expect(count({ scalableRef: ref, percentage: 5 })).toBe(0);
  });

  test('percentage and replicas together: the smaller', () => {
    expect(count({ scalableRef: ref, percentage: 50, replicas: 3 })).toBe(3);
    expect(count({ scalableRef: ref, percentage: 20, replicas: 3 })).toBe(2);
  });

  test('limits lower the count to the whole units whose requests fit, or set it alone', () => {
    expect(count({ scalableRef: ref, replicas: 8, limits: { cpu: '2' } })).toBe(4);
    expect(count({ scalableRef: ref, limits: { memory: '3Gi' } })).toBe(3);
  });

  test('limits naming nothing the pods request cannot give a count', () => {
    expect(count({ scalableRef: ref, limits: { 'nvidia.com/gpu': '1' } })).toMatch(
      /Couldn't calculate number of pods for buffer headroom based on provided resource limits/,
    );
  });

  test('a scalable buffer without replicas, percentage or limits is not ready, with upstream message', () => {
    expect(count({ scalableRef: ref })).toBe(
      "Couldn't get number of replicas for buffer headroom, replicas and percentage are not defined",
    );
  });

  test('a pod template buffer takes its replicas (at least 1, as upstream), or its limits alone', () => {
    const pt = { name: 'shape' };
    expect(count({ podTemplateRef: pt, replicas: 4 }, template)).toBe(4);
    expect(count({ podTemplateRef: pt, replicas: 0 }, template)).toBe(1);
    expect(count({ podTemplateRef: pt, limits: { cpu: '1500m' } }, template)).toBe(3);
    expect(count({ podTemplateRef: pt, percentage: 50 }, template)).toMatch(/Replicas should have a value/);
  });

  test('a reference that did not resolve is reported as it was found', () => {
    expect(count({ scalableRef: ref, replicas: 1 }, { ok: false, message: 'failed to get scale object: nope' })).toBe(
      'failed to get scale object: nope',
    );
  });

  test('limits count exact requests: 100m and 200m containers fit 10 units in 3 CPU', () => {
    const small = {
      containers: ['100m', '200m'].map((cpu, i) => ({ name: `c${i}`, resources: { requests: { cpu } } })),
    };
    const source: BufferSource = { ok: true, template: { spec: small } };
    expect(count({ podTemplateRef: { name: 'small' }, limits: { cpu: '3' } }, source)).toBe(10);
  });

  test('unitsWithinLimits ignores resources the pods do not request', () => {
    expect(unitsWithinLimits({ cpu: '3', 'nvidia.com/gpu': '1' }, { cpu: '1' })).toBe(3);
    expect(unitsWithinLimits({ 'nvidia.com/gpu': '1' }, { cpu: '1' })).toBeUndefined();
  });

  test('virtual pods are pending, unbound, named after the buffer and shaped like its units', () => {
    const pods = virtualPods(buffer({ scalableRef: ref }), { replicas: 2, template: shape });
    expect(pods.map((p) => p.metadata.name)).toEqual(['capacitybuffer-headroom-0', 'capacitybuffer-headroom-1']);
    expect(pods[0]?.spec.nodeName).toBeUndefined();
    expect(pods[0]?.metadata.labels).toEqual({ app: 'web' });
  });
});
