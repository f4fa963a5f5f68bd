import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/index.js';
import type { KubeClient, Node, Pod } from '../../kube/index.js';
import { Rng } from '../world/random.js';
import { PodWorkers } from './pods.js';
import { defaultKubeletTimings } from './timings.js';

/** An API server whose answers to status posts the test releases one by one, applying each when it answers. */
function slowServer(): {
  client: KubeClient;
  phase: () => string | undefined;
  answer: (i: number) => Promise<void>;
} {
  let stored: string | undefined;
  const posts: Array<{ phase: string | undefined; release: () => void; answered: boolean }> = [];
  const client = {
    patch: (_type: unknown, _key: unknown, body: { status: { phase?: string } }) =>
      new Promise<void>((resolve) => {
        const post = {
          phase: body.status.phase,
          answered: false,
          release: () => {
            if (post.answered) return;
            stored = post.phase;
            post.answered = true;
            resolve();
          },
        };
        posts.push(post);
      }),
  } as unknown as KubeClient;
  return {
    client,
    phase: () => stored,
    answer: async (i) => {
      posts[i]?.release();
      // Lets the pod worker see the answer and send what it holds back.
      for (let k = 0; k < 5; k++) await Promise.resolve();
    },
  };
}

const node: Node = {
  metadata: { name: 'n1' },
  status: { allocatable: { cpu: '4', memory: '16Gi', pods: '110' }, capacity: { cpu: '4', memory: '16Gi' } },
};

const pod: Pod = {
  metadata: { name: 'web-1', namespace: 'default', uid: 'u1' },
  spec: { nodeName: 'n1', containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '1' } } }] },
  status: { phase: 'Pending' },
};

describe('kubelet pod workers', () => {
  it('a pod ends Running even when the API server answers its ContainerCreating post after the Running one would go', async () => {
    const server = slowServer();
    const clock = new FakeClock();
    const workers = new PodWorkers({
      client: server.client,
      clock,
      rng: new Rng(1),
      timings: { ...defaultKubeletTimings, podStart: { min: 100, max: 100 } },
      node: () => node,
      volumesReady: () => true,
      onError: (e) => {
        throw e;
      },
    });
    workers.sync(pod);
    // The containers start while the ContainerCreating post is still unanswered; the API server answers the later
    // post first (if it was sent), then the earlier one.
    clock.advance(2_000);
    await server.answer(1);
    await server.answer(0);
    await server.answer(1);
    expect(server.phase()).toBe('Running');
  });
});
