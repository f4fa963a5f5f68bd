/**
 * The capacity reservation controller against the embedded API server and the simulated EC2: a reserved node whose
 * reservation was cancelled becomes on-demand (NodeClaim and Node labels), and a NodeClaim in an expiring capacity
 * block is deleted ahead of EC2's reclaim; reserved nodes in a live reservation are left alone.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../src/api/index.js';
import { startApiServer } from '../../src/apiserver/index.js';
import {
  EventRecorder,
  KubeClient,
  Resources,
  transportFromKubeConfig,
  type KubeObject,
  type Node,
} from '../../src/kube/index.js';
import { CapacityReservationController } from '../../src/providers/aws/controllers/capacityreservation/controller.js';
import { nodeClaim, nodeClass, world, type World } from './setup.js';

const zone = 'us-east-1a';
const reserved = { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['reserved', 'on-demand'] };
const m5 = { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: ['m5.large'] };

interface Env {
  server: Awaited<ReturnType<typeof startApiServer>>;
  client: KubeClient;
  w: World;
  controller: CapacityReservationController;
}

let env: Env;

beforeEach(async () => {
  const w = world();
  const server = await startApiServer({ clock: w.clock });
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  const client = new KubeClient(await transportFromKubeConfig(kc));
  const controller = new CapacityReservationController({
    client,
    clock: w.clock,
    recorder: new EventRecorder({ client, clock: w.clock, component: 'karpenter' }),
    get: (providerID) => w.provider.get(providerID),
    reservationState: (name, id) =>
      w.nodeClasses.get(name)?.status?.capacityReservations?.find((r) => r.id === id)?.state,
  });
  env = { server, client, w, controller };
});

afterEach(async () => {
  await env.server.close();
});

/** Launches a reserved NodeClaim through the provider and stores it (with its Node) in the API server. */
async function launchStored(): Promise<string> {
  const launched = await env.w.provider.create(nodeClaim([m5, reserved]));
  expect(launched.metadata.labels?.['karpenter.sh/capacity-type']).toBe('reserved');
  const name = launched.metadata.name;
  const labels = launched.metadata.labels ?? {};
  const nc = await env.client.create<NodeClaim & KubeObject>(Resources.nodeClaims, {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name, labels },
    spec: { nodeClassRef: launched.spec.nodeClassRef, requirements: [] },
  });
  const providerID = launched.status?.providerID ?? '';
  const withStatus: NodeClaim & KubeObject = { ...nc, status: { providerID, nodeName: `node-${name}` } };
  await env.client.update(Resources.nodeClaims, withStatus, 'status');
  await env.client.create<Node>(Resources.nodes, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: `node-${name}`, labels: { ...labels, team: 'theirs' } },
    spec: { providerID },
  });
  return name;
}

async function labelsOf(name: string): Promise<{ claim?: Record<string, string>; node?: Record<string, string> }> {
  const claims = await env.client.list<NodeClaim & KubeObject>(Resources.nodeClaims);
  const nodes = await env.client.list<Node>(Resources.nodes);
  return {
    claim: claims.items.find((c) => c.metadata.name === name)?.metadata.labels,
    node: nodes.items.find((n) => n.metadata.name === `node-${name}`)?.metadata.labels,
  };
}

describe('capacity reservation controller', () => {
  it('makes a node whose reservation was cancelled on-demand again, and leaves live reservations alone', async () => {
    const id = env.w.sim.createCapacityReservation({ instanceType: 'm5.large', zone, count: 2 });
    await env.w.apply(nodeClass('default', { capacityReservationSelectorTerms: [{ id }] }));
    const name = await launchStored();
    await env.controller.reconcile();
    expect((await labelsOf(name)).claim?.['karpenter.sh/capacity-type']).toBe('reserved');
    env.w.sim.cancelCapacityReservation(id);
    env.w.clock.advance(61_000);
    const resolved = await env.w.apply(nodeClass('default', { capacityReservationSelectorTerms: [{ id }] }));
    expect(resolved.status?.capacityReservations).toBeUndefined();
    expect(await env.controller.reconcile()).toEqual({ requeueAfter: 60_000 });
    const after = await labelsOf(name);
    for (const labels of [after.claim, after.node]) {
      expect(labels?.['karpenter.sh/capacity-type']).toBe('on-demand');
      expect(labels?.['karpenter.k8s.aws/capacity-reservation-id']).toBeUndefined();
      expect(labels?.['karpenter.k8s.aws/capacity-reservation-type']).toBeUndefined();
    }
    expect(after.node?.team).toBe('theirs');
  });

  it('deletes a NodeClaim in a capacity block once the block is expiring', async () => {
    const id = env.w.sim.createCapacityReservation({
      instanceType: 'm5.large',
      zone,
      count: 1,
      reservationType: 'capacity-block',
      endDate: new Date(env.w.clock.now() + 2 * 3_600_000),
    });
    await env.w.apply(nodeClass('default', { capacityReservationSelectorTerms: [{ id }] }));
    const name = await launchStored();
    await env.controller.reconcile();
    expect((await labelsOf(name)).claim).toBeDefined();
    env.w.clock.advance(2 * 3_600_000 - 39 * 60_000);
    const resolved = await env.w.apply(nodeClass('default', { capacityReservationSelectorTerms: [{ id }] }));
    expect(resolved.status?.capacityReservations?.[0]?.state).toBe('expiring');
    await env.controller.reconcile();
    expect((await labelsOf(name)).claim).toBeUndefined();
    const events = await env.client.list<KubeObject & { reason?: string }>(Resources.events, { namespace: 'default' });
    expect(events.items.map((e) => e.reason)).toContain('CapacityReservationExpiring');
  });
});
