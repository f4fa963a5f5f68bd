/**
 * Spot interruption end to end on the playground (scenarios/spot-interruption.yaml's workload): the simulated EC2
 * sends its 2-minute warning to the interruption queue; Tenon marks and deletes the NodeClaim, launches a
 * replacement at once and drains the node once the replacement is initialized. The displaced pod runs until then,
 * runs again elsewhere before the instance terminates, and its successor waits far less than a launch.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../src/api/index.js';
import { explainContext, explainNodeClaim, readSnapshot } from '../../src/explain/index.js';
import { Resources, type KubeObject, type Pod } from '../../src/kube/index.js';
import { instanceIdOf } from '../../src/providers/aws/index.js';
import { startPlayground, type Playground } from '../../src/sim/playground/playground.js';
import { applyObjects, parseManifests } from '../../src/sim/scenario/apply.js';
import { parseScenario } from '../../src/sim/scenario/validate.js';
import { SpotInterruptionWarningMs } from '../../src/sim/sqs/event-bridge.js';

type Claim = NodeClaim & KubeObject;

function workload(): string {
  const file = join(import.meta.dirname, '../../scenarios/spot-interruption.yaml');
  const step = parseScenario(readFileSync(file, 'utf8')).scenario?.steps[0];
  if (!step || !('apply' in step) || typeof step.apply !== 'string')
    throw new Error('the scenario starts with no apply');
  return step.apply;
}

function at(ts: string | undefined): number {
  return Date.parse(ts ?? '');
}

function readyAt(p: Pod): number {
  return at(p.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True')?.lastTransitionTime);
}

function initializedAt(nc: Claim): number {
  return at(nc.status?.conditions?.find((c) => c.type === 'Initialized' && c.status === 'True')?.lastTransitionTime);
}

async function list<T extends KubeObject>(
  pg: Playground,
  rt: Parameters<Playground['client']['list']>[0],
): Promise<T[]> {
  return (await pg.clock.busy(pg.observer.client.list<T>(rt as never))).items;
}

async function webPods(pg: Playground): Promise<Pod[]> {
  return (await list<Pod>(pg, Resources.pods)).filter((p) => p.metadata.labels?.app === 'web');
}

/** The scenario's Deployment: 4 replicas, one per node. */
const replicas = 4;

function running(pods: Pod[]): boolean {
  return pods.length === replicas && pods.every((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp);
}

async function metric(pg: Playground, name: string, labels: Record<string, string> = {}): Promise<number> {
  const m = await pg.operator.context.metrics.registry.getSingleMetric(name)?.get();
  const matches = (l: Record<string, unknown>): boolean => Object.entries(labels).every(([k, v]) => l[k] === v);
  return (m?.values ?? []).filter((v) => matches(v.labels)).reduce((s, v) => s + v.value, 0);
}

describe('spot interruption on the playground', () => {
  it('drains the reclaimed node only once its replacement is initialized, inside the warning', async () => {
    const pg = await startPlayground({ seed: 3 });
    try {
      await pg.clock.busy(applyObjects(pg.client, pg.discovery, parseManifests(workload())));
      for (let i = 0; i < 120 && !running(await webPods(pg)); i++) await pg.clock.advance(5_000);
      expect(running(await webPods(pg))).toBe(true);

      const [victim] = pg.ec2.listInstances({ states: ['running'] }).filter((i) => i.capacityType === 'spot');
      if (!victim) throw new Error('no spot instance running');
      const claim = (await list<Claim>(pg, Resources.nodeClaims)).find(
        (nc) => instanceIdOf(nc.status?.providerID ?? '') === victim.instanceId,
      );
      if (!claim) throw new Error(`no NodeClaim for ${victim.instanceId}`);
      const displaced = new Set(
        (await webPods(pg)).filter((p) => p.spec.nodeName === claim.status?.nodeName).map((p) => p.metadata.name),
      );
      expect(displaced.size).toBeGreaterThan(0);
      const claimsBefore = new Set((await list<Claim>(pg, Resources.nodeClaims)).map((nc) => nc.metadata.name));

      const t0 = pg.clock.now();
      pg.interruption.eventBridge.interruptSpot(victim.instanceId);
      let claimDeletedAt: number | undefined;
      let firstEvictionAt: number | undefined;
      let explainedWait: string | undefined;
      while (pg.clock.now() < t0 + SpotInterruptionWarningMs) {
        await pg.clock.advance(1_000);
        const current = (await list<Claim>(pg, Resources.nodeClaims)).find(
          (nc) => nc.metadata.name === claim.metadata.name,
        );
        if (claimDeletedAt === undefined && (!current || current.metadata.deletionTimestamp))
          claimDeletedAt = pg.clock.now();
        const stayed = (await webPods(pg)).filter(
          (p) => displaced.has(p.metadata.name) && !p.metadata.deletionTimestamp && p.status?.phase === 'Running',
        );
        if (firstEvictionAt === undefined && stayed.length < displaced.size) firstEvictionAt = pg.clock.now();
        if (claimDeletedAt !== undefined && firstEvictionAt === undefined && explainedWait === undefined) {
          const snapshot = await pg.clock.busy(readSnapshot(pg.observer.client));
          const ctx = explainContext(snapshot, { instanceTypes: new Map(), now: pg.clock.now() });
          explainedWait = explainNodeClaim(ctx, claim.metadata.name ?? '')?.details.find((d) => d.startsWith('next:'));
        }
      }
      // At the end of the warning the workload already runs without the instance (which Tenon terminated itself).
      expect(claimDeletedAt).toBeDefined();
      // While it waited, `tenon explain nodeclaim` said so.
      expect(explainedWait).toMatch(
        /^next: interrupted, its instance goes in [\w ]+: the pods keep running until capacity for them is initialized \(or a launch fails\), the drain starts in [\w ]+ at the latest/,
      );
      expect((claimDeletedAt ?? Infinity) - t0).toBeLessThanOrEqual(5_000);
      const pods = await webPods(pg);
      expect(running(pods)).toBe(true);
      expect(pods.some((p) => displaced.has(p.metadata.name ?? ''))).toBe(false);

      // The replacement launched and was initialized before the first eviction (seen within the second).
      const replacements = (await list<Claim>(pg, Resources.nodeClaims)).filter(
        (nc) => !claimsBefore.has(nc.metadata.name) && at(nc.metadata.creationTimestamp) >= t0,
      );
      expect(replacements).toHaveLength(1);
      const [replacement] = replacements;
      if (!replacement || firstEvictionAt === undefined) throw new Error('no replacement, or no eviction');
      const created = at(replacement.metadata.creationTimestamp);
      const launch = initializedAt(replacement) - created;
      expect(created).toBeLessThan(firstEvictionAt);
      expect(initializedAt(replacement)).toBeLessThanOrEqual(firstEvictionAt);
      // ... and inside the time that leaves the pod its 30 s grace and the 10 s margin before EC2 reclaims it.
      expect(firstEvictionAt - t0).toBeLessThanOrEqual(SpotInterruptionWarningMs - 40_000 + 1_000);

      // The displaced pod's successor waited for the scheduler and its start, not for a launch.
      const newPods = pods.filter((p) => at(p.metadata.creationTimestamp) >= t0);
      expect(newPods.length).toBe(displaced.size);
      const pending = Math.max(...newPods.map((p) => readyAt(p) - at(p.metadata.creationTimestamp)));
      expect(pending).toBeLessThan(launch);
      expect(pending).toBeLessThanOrEqual(10_000);

      expect(
        await metric(pg, 'karpenter_interruption_received_messages_total', { message_type: 'spot_interrupted' }),
      ).toBe(1);
      expect(await metric(pg, 'karpenter_interruption_deleted_messages_total')).toBeGreaterThanOrEqual(1);
      expect(await metric(pg, 'karpenter_nodeclaims_disrupted_total', { reason: 'spot_interrupted' })).toBe(1);

      // Then EC2 reclaims it; the queue's state-change notices find nothing left to do.
      await pg.clock.advance(30_000);
      expect(pg.ec2.getInstance(victim.instanceId)?.state).toBe('terminated');
      expect(running(await webPods(pg))).toBe(true);
      expect(pg.interruption.queue.depth()).toBe(0);
    } finally {
      await pg.stop();
    }
  }, 180_000);
});
