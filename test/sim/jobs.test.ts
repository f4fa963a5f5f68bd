import { afterEach, describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../src/kube/index.js';
import { ExitCodeAnnotation, RunSecondsAnnotation } from '../../src/sim/index.js';
import { SimResources, type Job } from '../../src/sim/world/resources.js';
import { machine, pods, startWorld, until, type SimHarness } from './harness.js';

let h: SimHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const job = (name: string, spec: Partial<Job['spec']>, annotations: Record<string, string>, cpu = '100m'): Job => ({
  metadata: { name, namespace: 'default' },
  spec: {
    ...spec,
    template: {
      metadata: { annotations },
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'work', image: 'busybox:1.36', resources: { requests: { cpu, memory: '128Mi' } } }],
        tolerations: [{ key: 'node.cloudprovider.kubernetes.io/uninitialized', operator: 'Exists' }],
      },
    },
  },
});

async function readyNode(world: SimHarness): Promise<boolean> {
  const nodes = (await world.client.list<Node>(SimResources.nodes)).items;
  return (
    nodes.length > 0 && nodes.every((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
  );
}

const getJob = (world: SimHarness, name: string): Promise<Job> =>
  world.client.get<Job>(SimResources.jobs, { name, namespace: 'default' });
const jobPods = async (world: SimHarness, name: string): Promise<Pod[]> =>
  (await pods(world)).filter((p) => p.metadata.labels?.['job-name'] === name);

describe('simulated Jobs', () => {
  it('runs a Job to completion: pods succeed after their run time and free the node for the next ones', async () => {
    h = await startWorld({ machines: [machine('a')] });
    const world = h;
    await until(world, () => readyNode(world), 120_000);
    // 3 cpu each on a 4-cpu node: the second pod can only start once the first one has finished.
    await world.client.create(
      SimResources.jobs,
      job('crunch', { completions: 2, parallelism: 2 }, { [RunSecondsAnnotation]: '60' }, '3'),
    );
    await until(world, async () => (await jobPods(world, 'crunch')).some((p) => p.status?.phase === 'Running'), 60_000);
    const firstRunning = (await jobPods(world, 'crunch')).filter((p) => p.status?.phase === 'Running');
    expect(firstRunning).toHaveLength(1);
    await until(
      world,
      async () => (await getJob(world, 'crunch')).status?.conditions?.some((c) => c.type === 'Complete') ?? false,
      300_000,
    );
    const done = await getJob(world, 'crunch');
    expect(done.status).toMatchObject({ succeeded: 2, active: 0, failed: 0 });
    const seconds = (Date.parse(done.status?.completionTime ?? '') - Date.parse(done.status?.startTime ?? '')) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(120);
    const finished = await jobPods(world, 'crunch');
    expect(finished.map((p) => p.status?.phase)).toEqual(['Succeeded', 'Succeeded']);
    expect(finished.every((p) => p.metadata.ownerReferences?.[0]?.uid === done.metadata.uid)).toBe(true);
  });

  it('fails a Job whose pods exit non-zero once the backoff limit is passed, and one past its deadline', async () => {
    h = await startWorld({ machines: [machine('a')] });
    const world = h;
    await until(world, () => readyNode(world), 120_000);
    await world.client.create(
      SimResources.jobs,
      job('flaky', { backoffLimit: 1 }, { [RunSecondsAnnotation]: '5', [ExitCodeAnnotation]: '3' }),
    );
    await world.client.create(
      SimResources.jobs,
      job('slow', { activeDeadlineSeconds: 60 }, { [RunSecondsAnnotation]: '600' }),
    );
    const failed = async (name: string): Promise<boolean> =>
      (await getJob(world, name)).status?.conditions?.some((c) => c.type === 'Failed') ?? false;
    await until(world, async () => (await failed('flaky')) && (await failed('slow')), 300_000);
    const flaky = await getJob(world, 'flaky');
    expect(flaky.status?.failed).toBe(2);
    expect(flaky.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
    });
    const flakyPod = (await jobPods(world, 'flaky'))[0] as Pod & {
      status: { containerStatuses?: Array<{ state?: { terminated?: { exitCode?: number } } }> };
    };
    expect(flakyPod.status.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(3);
    const slow = await getJob(world, 'slow');
    expect(slow.status?.conditions?.find((c) => c.type === 'Failed')?.reason).toBe('DeadlineExceeded');
    await until(world, async () => (await jobPods(world, 'slow')).length === 0, 60_000);
  });
});
