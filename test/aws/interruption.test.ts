/**
 * The interruption controller against the embedded API server and the simulated queue: what it does for each
 * kind of message (Karpenter's events, the NodeClaim deleted or kept, the spot offering marked unavailable),
 * which messages it deletes, and that a message whose handling failed comes back after its visibility timeout.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../src/api/index.js';
import { startApiServer } from '../../src/apiserver/index.js';
import { FakeClock } from '../../src/clock/index.js';
import {
  EventRecorder,
  KubeClient,
  Resources,
  transportFromKubeConfig,
  type KubeObject,
  type Node,
} from '../../src/kube/index.js';
import { createLogger } from '../../src/observability/logger.js';
import { Metrics } from '../../src/observability/metrics.js';
import { UnavailableOfferings } from '../../src/providers/aws/cache/unavailable-offerings.js';
import { InterruptionController } from '../../src/providers/aws/controllers/interruption/controller.js';
import { SimQueue } from '../../src/sim/sqs/sim-queue.js';

interface Env {
  server: Awaited<ReturnType<typeof startApiServer>>;
  client: KubeClient;
  clock: FakeClock;
  queue: SimQueue;
  metrics: Metrics;
  offerings: UnavailableOfferings;
  logs: string[];
  controller: InterruptionController;
}

let env: Env;

beforeEach(async () => {
  const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));
  const server = await startApiServer({ clock });
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  const client = new KubeClient(await transportFromKubeConfig(kc));
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(chunk.toString());
      cb();
    },
  });
  const queue = new SimQueue(clock, 'demo');
  const metrics = new Metrics();
  const offerings = new UnavailableOfferings(clock);
  const controller = new InterruptionController({
    client,
    clock,
    queue,
    recorder: new EventRecorder({ client, clock, component: 'karpenter' }),
    metrics,
    log: createLogger({ level: 'info', destination, now: () => clock.now() }),
    unavailableOfferings: offerings,
  });
  env = { server, client, clock, queue, metrics, offerings, logs, controller };
});

afterEach(async () => {
  env.controller.stop();
  await env.server.close();
});

const instanceId = 'i-0123456789abcdef0';
const providerID = `aws:///us-west-2a/${instanceId}`;

async function nodeClaimAndNode(): Promise<void> {
  const labels = {
    'karpenter.sh/nodepool': 'default',
    'karpenter.sh/capacity-type': 'spot',
    'node.kubernetes.io/instance-type': 'm5.large',
    'topology.kubernetes.io/zone': 'us-west-2a',
  };
  const nc = await env.client.create<NodeClaim & KubeObject>(Resources.nodeClaims, {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name: 'default-abc12', labels },
    spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' }, requirements: [] },
  });
  const withStatus: NodeClaim & KubeObject = { ...nc, status: { providerID, nodeName: 'ip-10-0-0-1' } };
  await env.client.update(Resources.nodeClaims, withStatus, 'status');
  await env.client.create<Node>(Resources.nodes, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'ip-10-0-0-1', labels },
    spec: { providerID },
  });
}

function send(detailType: string, detail: Record<string, string> = {}): void {
  env.queue.send(
    JSON.stringify({
      version: '0',
      source: 'aws.ec2',
      'detail-type': detailType,
      time: new Date(env.clock.now() - 3_000).toISOString(),
      detail: { 'instance-id': instanceId, ...detail },
    }),
  );
}

async function reasons(kind: string): Promise<string[]> {
  const events = await env.client.list<KubeObject & { reason?: string; involvedObject?: { kind?: string } }>(
    Resources.events,
    { namespace: 'default' },
  );
  return events.items.filter((e) => e.involvedObject?.kind === kind).map((e) => e.reason ?? '');
}

async function nodeClaimExists(): Promise<boolean> {
  const list = await env.client.list(Resources.nodeClaims);
  return list.items.some((nc) => nc.metadata.name === 'default-abc12');
}

async function value(name: string, labels: Record<string, string> = {}): Promise<number> {
  const m = await env.metrics.registry.getSingleMetric(name)?.get();
  const ok = (l: Record<string, unknown>): boolean => Object.entries(labels).every(([k, v]) => l[k] === v);
  return (m?.values ?? []).filter((v) => ok(v.labels)).reduce((s, v) => s + v.value, 0);
}

describe('interruption controller', () => {
  it('deletes the NodeClaim of a spot interruption warning and marks the offering unavailable', async () => {
    await nodeClaimAndNode();
    send('EC2 Spot Instance Interruption Warning', { 'instance-action': 'terminate' });
    await env.controller.reconcile();
    expect(await nodeClaimExists()).toBe(false);
    expect(env.offerings.isUnavailable('m5.large', 'us-west-2a', 'spot')).toBe(true);
    expect(env.offerings.isUnavailable('m5.large', 'us-west-2a', 'on-demand')).toBe(false);
    expect((await reasons('NodeClaim')).sort()).toEqual(['SpotInterrupted', 'TerminatingOnInterruption']);
    expect((await reasons('Node')).sort()).toEqual(['SpotInterrupted', 'TerminatingOnInterruption']);
    expect(env.queue.depth()).toBe(0);
    expect(await value('karpenter_interruption_received_messages_total', { message_type: 'spot_interrupted' })).toBe(1);
    expect(await value('karpenter_interruption_deleted_messages_total')).toBe(1);
    expect(
      await value('karpenter_nodeclaims_disrupted_total', { reason: 'spot_interrupted', nodepool: 'default' }),
    ).toBe(1);
    const queued = await env.metrics.registry
      .getSingleMetric('karpenter_interruption_message_queue_duration_seconds')
      ?.get();
    const sum = queued?.values.find((v) => (v as { metricName?: string }).metricName?.endsWith('_sum'));
    expect(sum?.value).toBe(3);
    const line = env.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.message === 'initiating delete from interruption message');
    expect(line).toMatchObject({
      level: 'INFO',
      controller: 'interruption',
      queue: 'demo',
      messageKind: 'spot_interrupted',
      action: 'CordonAndDrain',
      NodeClaim: { name: 'default-abc12' },
      Node: { name: 'ip-10-0-0-1' },
    });
  });

  it.each([
    ['stopping', 'InstanceStopping'],
    ['shutting-down', 'InstanceTerminating'],
  ])('deletes the NodeClaim of an instance %s, with %s', async (state, reason) => {
    await nodeClaimAndNode();
    send('EC2 Instance State-change Notification', { state });
    await env.controller.reconcile();
    expect(await nodeClaimExists()).toBe(false);
    expect(await reasons('NodeClaim')).toContain(reason);
    expect(env.offerings.isUnavailable('m5.large', 'us-west-2a', 'spot')).toBe(false);
  });

  it('only records a rebalance recommendation: the NodeClaim stays', async () => {
    await nodeClaimAndNode();
    send('EC2 Instance Rebalance Recommendation');
    await env.controller.reconcile();
    expect(await nodeClaimExists()).toBe(true);
    expect(await reasons('NodeClaim')).toEqual(['SpotRebalanceRecommendation']);
    expect(env.queue.depth()).toBe(0);
  });

  it('deletes what it cannot parse, and messages about instances it does not own, without acting', async () => {
    await nodeClaimAndNode();
    env.queue.send('{"not":"an event"}');
    env.queue.send(
      JSON.stringify({
        source: 'aws.ec2',
        'detail-type': 'EC2 Spot Instance Interruption Warning',
        detail: { 'instance-id': 'i-someone-else' },
      }),
    );
    await env.controller.reconcile();
    expect(env.queue.depth()).toBe(0);
    expect(await nodeClaimExists()).toBe(true);
    expect(await value('karpenter_interruption_deleted_messages_total')).toBe(2);
    expect(env.logs.some((l) => l.includes('failed parsing interruption message'))).toBe(true);
  });

  it('keeps a message whose handling failed: it comes back after the visibility timeout and is handled then', async () => {
    await nodeClaimAndNode();
    const heal = env.server.faults.addError({ verb: 'delete', resource: 'nodeclaims', code: 500, rate: 1 });
    send('EC2 Spot Instance Interruption Warning');
    await expect(env.controller.reconcile()).rejects.toThrow(/handling interruption messages/);
    expect(env.queue.depth()).toBe(1);
    heal();
    // Hidden while in flight: a poll now waits; the message is visible again 20 s after it was received.
    const poll = env.controller.reconcile();
    await env.clock.advance(20_000);
    await poll;
    expect(await nodeClaimExists()).toBe(false);
    expect(env.queue.depth()).toBe(0);
  });
});

describe('interruption controller: when the instance goes away', () => {
  /** The NodeClaim's stamp after the message was handled (a finalizer keeps the deleted NodeClaim readable). */
  async function stampAfter(body: string): Promise<string | undefined> {
    await nodeClaimAndNode();
    const nc = await env.client.get<NodeClaim & KubeObject>(Resources.nodeClaims, { name: 'default-abc12' });
    await env.client.update(Resources.nodeClaims, {
      ...nc,
      metadata: { ...nc.metadata, finalizers: ['karpenter.sh/termination'] },
    });
    env.queue.send(body);
    await env.controller.reconcile();
    const after = await env.client.get<NodeClaim & KubeObject>(Resources.nodeClaims, { name: 'default-abc12' });
    expect(after.metadata.deletionTimestamp).toBeDefined();
    return after.metadata.annotations?.['tenon.sh/instance-termination-time'];
  }

  function health(startTime: number): string {
    return JSON.stringify({
      source: 'aws.health',
      'detail-type': 'AWS Health Event',
      time: new Date(env.clock.now()).toISOString(),
      detail: {
        service: 'EC2',
        eventTypeCategory: 'scheduledChange',
        startTime: new Date(startTime).toUTCString(),
        affectedEntities: [{ entityValue: instanceId }],
      },
    });
  }

  it('stamps a spot interruption two minutes after the warning was sent', async () => {
    const sent = env.clock.now() - 3_000;
    const body = JSON.stringify({
      source: 'aws.ec2',
      'detail-type': 'EC2 Spot Instance Interruption Warning',
      time: new Date(sent).toISOString(),
      detail: { 'instance-id': instanceId, 'instance-action': 'terminate' },
    });
    expect(await stampAfter(body)).toBe(new Date(sent + 120_000).toISOString());
  });

  it('stamps a scheduled change at its start', async () => {
    expect(await stampAfter(health(env.clock.now() + 5 * 60_000))).toBe(
      new Date(env.clock.now() + 5 * 60_000).toISOString(),
    );
  });

  it('does not wait 2 days for a retirement 2 days ahead: the stamp is 15 minutes ahead', async () => {
    expect(await stampAfter(health(env.clock.now() + 2 * 86_400_000))).toBe(
      new Date(env.clock.now() + 15 * 60_000).toISOString(),
    );
  });

  it('does not stamp an instance already stopping: its node drains at once', async () => {
    const body = JSON.stringify({
      source: 'aws.ec2',
      'detail-type': 'EC2 Instance State-change Notification',
      time: new Date(env.clock.now()).toISOString(),
      detail: { 'instance-id': instanceId, state: 'stopping' },
    });
    expect(await stampAfter(body)).toBeUndefined();
  });
});

describe('interruption controller and NodeClaims already being deleted', () => {
  it('records nothing for the termination of an instance whose NodeClaim is being deleted', async () => {
    await nodeClaimAndNode();
    const nc = await env.client.get<NodeClaim & KubeObject>(Resources.nodeClaims, { name: 'default-abc12' });
    await env.client.update(Resources.nodeClaims, {
      ...nc,
      metadata: { ...nc.metadata, finalizers: ['karpenter.sh/termination'] },
    });
    await env.client.delete(Resources.nodeClaims, { name: 'default-abc12' });
    send('EC2 Instance State-change Notification', { state: 'shutting-down' });
    await env.controller.reconcile();
    expect(await reasons('NodeClaim')).toEqual([]);
    expect(env.queue.depth()).toBe(0);
    expect(await value('karpenter_nodeclaims_disrupted_total')).toBe(0);
  });
});
