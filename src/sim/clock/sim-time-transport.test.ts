import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startApiServer, type ApiServer } from '../../apiserver/index.js';
import { FakeClock } from '../../clock/index.js';
import { KubeClient, Resources, type Node, type Pod } from '../../kube/index.js';
import { inProcessTransport } from '../playground/in-process-transport.js';
import { simTimeTransport } from './sim-time-transport.js';
import { WallTimeMap } from './wall-time-map.js';

/**
 * An attached run in miniature: the API server stamps objects on `wall`, the playground's clients measure ages on
 * `sim`, which runs 30 times faster (as attached scenario runs are paced), both starting at the same instant.
 */
const start = Date.UTC(2026, 10, 27, 19, 0, 0);
const pace = 30;

let wall: FakeClock;
let sim: FakeClock;
let map: WallTimeMap;
let server: ApiServer;
let client: KubeClient;
let raw: KubeClient;

beforeEach(async () => {
  wall = new FakeClock(start);
  sim = new FakeClock(start);
  map = new WallTimeMap();
  server = await startApiServer({ crds: [], clock: wall });
  const transport = inProcessTransport(server);
  client = new KubeClient(simTimeTransport(transport, { map, clock: sim, wallNow: () => wall.now() }));
  raw = new KubeClient(transport);
});
afterEach(() => server.close());

/** `seconds` of wall time at the run's pace, with the readings a run's steady traffic leaves behind. */
function run(seconds: number): void {
  for (let i = 0; i < seconds; i++) {
    wall.advance(1_000);
    sim.advance(1_000 * pace);
    map.record(wall.now(), sim.now());
  }
}

const ms = (t: string | undefined): number => Date.parse(t ?? '');
const node = (name: string): Node => ({ metadata: { name }, spec: {} });
const pod = (name: string): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] },
});

describe('the sim-time transport of an attached run', () => {
  it('gives an object the cluster creates mid-run its simulated age, where the raw timestamp makes it far older', async () => {
    run(20);
    const createdAt = sim.now();
    await client.create(Resources.nodes, node('n1'));
    run(10);
    const read = await client.get<Node>(Resources.nodes, { name: 'n1' });
    expect(sim.now() - ms(read.metadata.creationTimestamp)).toBe(sim.now() - createdAt);
    // Without the transport: simulated now minus the wall stamp counts the simulated clock's whole head start.
    const unmapped = await raw.get<Node>(Resources.nodes, { name: 'n1' });
    expect(sim.now() - ms(unmapped.metadata.creationTimestamp)).toBe(sim.now() - createdAt + 20_000 * (pace - 1));
    const listed = await client.list<Node>(Resources.nodes);
    expect(listed.items.map((n) => ms(n.metadata.creationTimestamp))).toEqual([createdAt]);
  });

  it('maps the objects of watch events', async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const watching = client.transport.stream({
      method: 'GET',
      path: '/api/v1/nodes',
      query: { watch: 'true' },
      signal: stop.signal,
      onLine: (line) => lines.push(line),
    });
    run(15);
    const createdAt = sim.now();
    await raw.create(Resources.nodes, node('n2'));
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    const event = JSON.parse(lines[0] ?? '{}') as { type: string; object: Node };
    expect(event.type).toBe('ADDED');
    expect(ms(event.object.metadata.creationTimestamp)).toBe(createdAt);
    stop.abort();
    await watching;
  });

  it('puts a pod’s deletion deadline its grace period after the simulated instant of the deletion', async () => {
    await client.create(Resources.pods, pod('p1'));
    run(20);
    const deletedAt = sim.now();
    await client.delete(Resources.pods, { name: 'p1', namespace: 'default' }, { gracePeriodSeconds: 30 });
    run(1);
    const read = await client.get<Pod>(Resources.pods, { name: 'p1', namespace: 'default' });
    expect(ms(read.metadata.deletionTimestamp)).toBe(deletedAt + 30_000);
    expect(read.metadata.deletionGracePeriodSeconds).toBe(30);
  });

  it('writes the playground’s simulated times back as wall times, so they read back as written', async () => {
    await client.create(Resources.pods, pod('p2'));
    run(12);
    const p = await client.get<Pod>(Resources.pods, { name: 'p2', namespace: 'default' });
    const scheduledAt = new Date(sim.now()).toISOString();
    const conditions = [
      { type: 'PodScheduled', status: 'True' as const, lastTransitionTime: scheduledAt },
      { type: 'Ready', status: 'True' as const, lastTransitionTime: scheduledAt },
    ];
    await client.update<Pod>(Resources.pods, { ...p, status: { phase: 'Running', conditions } }, 'status');
    // PodScheduled is kube-scheduler's (wall clock) in the cluster; Ready is the simulated kubelet's, left as it is.
    const stored = await raw.get<Pod>(Resources.pods, { name: 'p2', namespace: 'default' });
    const storedAt = (type: string): number =>
      ms(stored.status?.conditions?.find((c) => c.type === type)?.lastTransitionTime);
    expect(storedAt('PodScheduled')).toBe(wall.now());
    expect(storedAt('Ready')).toBe(sim.now());
    const back = await client.get<Pod>(Resources.pods, { name: 'p2', namespace: 'default' });
    expect(back.status?.conditions?.map((c) => ms(c.lastTransitionTime))).toEqual([sim.now(), sim.now()]);
    // A replace carrying the mapped creationTimestamp leaves the cluster's own as it was.
    await client.update<Pod>(Resources.pods, { ...back, metadata: { ...back.metadata, labels: { a: 'b' } } });
    const replaced = await raw.get<Pod>(Resources.pods, { name: 'p2', namespace: 'default' });
    expect(replaced.metadata.creationTimestamp).toBe(stored.metadata.creationTimestamp);
  });

  it('maps the conditions the node lifecycle controller marks Unknown, not those the simulated kubelet posts', async () => {
    await client.create(Resources.nodes, node('n3'));
    run(5);
    const kubeletAt = new Date(sim.now()).toISOString();
    const n = await client.get<Node>(Resources.nodes, { name: 'n3' });
    const ready = { type: 'Ready', status: 'True' as const, reason: 'KubeletReady', lastTransitionTime: kubeletAt };
    const memory = { type: 'MemoryPressure', status: 'False' as const, reason: 'KubeletHasSufficientMemory' };
    await client.update<Node>(
      Resources.nodes,
      { ...n, status: { conditions: [ready, { ...memory, lastTransitionTime: kubeletAt }] } },
      'status',
    );
    run(10);
    // kube-controller-manager, on the wall clock, after the kubelet went silent.
    const silentAt = sim.now();
    const seen = await raw.get<Node>(Resources.nodes, { name: 'n3' });
    const unknown = {
      ...ready,
      status: 'Unknown' as const,
      reason: 'NodeStatusUnknown',
      lastTransitionTime: new Date(wall.now()).toISOString(),
    };
    const rest = seen.status?.conditions?.filter((c) => c.type !== 'Ready') ?? [];
    await raw.update<Node>(Resources.nodes, { ...seen, status: { conditions: [unknown, ...rest] } }, 'status');
    run(3);
    const read = await client.get<Node>(Resources.nodes, { name: 'n3' });
    const at = (type: string): number => ms(read.status?.conditions?.find((c) => c.type === type)?.lastTransitionTime);
    expect(at('Ready')).toBe(silentAt);
    expect(at('MemoryPressure')).toBe(ms(kubeletAt));
  });
});
