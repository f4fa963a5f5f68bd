import { describe, expect, it } from 'vitest';
import type { Container, Pod } from '../model.js';
import { podRequests } from './pod-requests.js';

const c = (cpu: string, memory: string, extra: Partial<Container> = {}): Container => ({
  name: 'c',
  resources: { requests: { cpu, memory } },
  ...extra,
});
const pod = (spec: Partial<Pod['spec']>): Pod => ({ metadata: { name: 'p' }, spec: { containers: [], ...spec } });

describe('pod requests', () => {
  it('sums containers and counts one pod slot', () => {
    expect(podRequests(pod({ containers: [c('1', '1Gi'), c('500m', '1Gi')] }))).toEqual({
      cpu: 1500,
      memory: 2 * 2 ** 30,
      pods: 1,
    });
  });

  it('takes the larger of an init container and the running containers', () => {
    const r = podRequests(pod({ containers: [c('1', '1Gi')], initContainers: [c('2', '512Mi')] }));
    expect(r.cpu).toBe(2000);
    expect(r.memory).toBe(2 ** 30);
  });

  it('adds sidecars (restartPolicy Always) to the running containers and to later init containers', () => {
    const r = podRequests(
      pod({
        containers: [c('1', '1Gi')],
        initContainers: [c('500m', '128Mi', { restartPolicy: 'Always' }), c('1200m', '1Gi')],
      }),
    );
    // running: 1 + 0.5 = 1.5; second init runs beside the sidecar: 1.2 + 0.5 = 1.7
    expect(r.cpu).toBe(1700);
    expect(r.memory).toBe(2 ** 30 + 128 * 2 ** 20);
  });

  it('adds the pod overhead and defaults requests to limits', () => {
    const r = podRequests(
      pod({
        containers: [{ name: 'x', resources: { limits: { cpu: '2', 'nvidia.com/gpu': '1' } } }],
        overhead: { cpu: '250m' },
      }),
    );
    expect(r).toEqual({ cpu: 2250, 'nvidia.com/gpu': 1, pods: 1 });
  });
});
