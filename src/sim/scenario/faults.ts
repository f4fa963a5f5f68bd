/**
 * Applies a scenario's fault to the playground. A fault with `for` heals itself that long after its step (on
 * simulated time): API error rules are removed, capacity and the CCM delay are restored, kubelets restart.
 */
import { parseDuration } from '../../settings/duration.js';
import { Resources, type Node } from '../../kube/index.js';
import type { SimAction } from '../ec2/rate-limits.js';
import type { Playground } from '../playground/playground.js';
import type { Fault, FaultWindow } from './format.js';

/** Runs `heal` once the fault's window has passed; says so in the report text. */
function windowed(pg: Playground, w: FaultWindow, text: string, heal: () => void): string {
  const ms = w.for === undefined ? undefined : parseDuration(w.for);
  if (ms === undefined) return text;
  pg.clock.setTimer(ms, heal);
  return `${text} for ${w.for}`;
}

async function stopKubelets(
  pg: Playground,
  f: { labelSelector?: string; count?: number } & FaultWindow,
): Promise<string> {
  // The API server selects, as for a scenario's counts: one selector syntax everywhere.
  const nodes = (await pg.observer.client.list<Node>(Resources.nodes, { labelSelector: f.labelSelector })).items
    .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1))
    .slice(0, f.count ?? Number.POSITIVE_INFINITY);
  const names = nodes.map((n) => n.metadata.name ?? '');
  for (const n of names) pg.world.kubelets.stopKubelet(n);
  const text = `stopped the kubelets of ${names.join(', ') || 'no node'}`;
  return windowed(pg, f, text, () => {
    for (const n of names) pg.world.kubelets.restartKubelet(n);
  });
}

function noCapacity(
  pg: Playground,
  f: { instanceType?: string; zone?: string; capacityType?: string } & FaultWindow,
): string {
  const account = pg.ec2.account;
  const types = f.instanceType ? [f.instanceType] : account.catalog.map((c) => c.name);
  const zones = f.zone ? [f.zone] : account.zones;
  const capacityTypes = (f.capacityType ? [f.capacityType] : ['on-demand', 'spot']) as Array<'on-demand' | 'spot'>;
  const before: Array<{ pool: Parameters<Playground['ec2']['setCapacity']>[0]; count: number }> = [];
  for (const instanceType of types) {
    for (const zone of zones) {
      for (const capacityType of capacityTypes) {
        const pool = { instanceType, zone, capacityType };
        before.push({ pool, count: pg.ec2.capacity(pool) });
        pg.ec2.setCapacity(pool, 0);
      }
    }
  }
  return windowed(pg, f, `no capacity in ${before.length} pools`, () => {
    for (const b of before) pg.ec2.setCapacity(b.pool, b.count);
  });
}

function loseInstances(pg: Playground, f: { count: number; capacityType?: string }): string {
  const running = pg.ec2
    .listInstances({ states: ['running'] })
    .filter((i) => f.capacityType === undefined || i.capacityType === f.capacityType)
    .slice(0, f.count);
  for (const i of running) pg.ec2.loseInstance(i.instanceId);
  return `terminated ${running.map((i) => i.instanceId).join(', ') || 'no instance'}`;
}

function spotInterruption(pg: Playground, f: { count: number; warning?: string }): string {
  const running = pg.ec2
    .listInstances({ states: ['running'] })
    .filter((i) => i.capacityType === 'spot')
    .slice(0, f.count);
  const warningMs = f.warning === undefined ? undefined : parseDuration(f.warning);
  for (const i of running) pg.interruption.eventBridge.interruptSpot(i.instanceId, warningMs);
  const ids = running.map((i) => i.instanceId).join(', ') || 'no spot instance';
  return `spot interruption warning for ${ids}; reclaimed after ${f.warning ?? '2m'}`;
}

function rebalanceRecommendation(pg: Playground, f: { count: number }): string {
  const running = pg.ec2
    .listInstances({ states: ['running'] })
    .filter((i) => i.capacityType === 'spot')
    .slice(0, f.count);
  for (const i of running) pg.interruption.eventBridge.recommendRebalance(i.instanceId);
  return `rebalance recommendation for ${running.map((i) => i.instanceId).join(', ') || 'no spot instance'}`;
}

/** The embedded API server, which the API faults need (a scenario naming them is skipped on an attached cluster). */
function embedded(pg: Playground): NonNullable<Playground['server']> {
  if (!pg.server)
    throw new Error('cannot inject this fault into an attached cluster: only the embedded API server injects it');
  return pg.server;
}

function apiErrors(pg: Playground, f: Extract<Fault, { apiErrors: unknown }>['apiErrors']): string {
  const code = f.code ?? 500;
  const remove = embedded(pg).faults.addError({ verb: f.verb, resource: f.resource, code, rate: f.rate });
  const scope = [f.verb, f.resource].filter(Boolean).join(' ') || 'all';
  return windowed(pg, f, `API errors ${code} at rate ${f.rate} on ${scope} requests`, remove);
}

function watchDrop(pg: Playground, f: Extract<Fault, { watchDrop: unknown }>['watchDrop']): string {
  const server = embedded(pg);
  server.closeWatches();
  if (f === true || f.lifetime === undefined) return 'closed every watch';
  server.faults.setWatchLifetime(parseDuration(f.lifetime) ?? 0);
  return windowed(pg, f, `closed every watch, and each new one within ${f.lifetime}`, () =>
    server.faults.setWatchLifetime(0),
  );
}

/** Why a fault cannot be injected into a cluster Tenon is only attached to (undefined when it can). */
export function faultNeedsEmbeddedServer(fault: Fault): string | undefined {
  if ('apiErrors' in fault) return 'the apiErrors fault is injected by the embedded API server';
  if ('watchDrop' in fault) return 'the watchDrop fault is injected by the embedded API server';
  return undefined;
}

/** Injects the fault; returns what it did, for the report. */
export async function injectFault(pg: Playground, fault: Fault): Promise<string> {
  if ('ccmDelay' in fault) {
    const f = fault.ccmDelay;
    const before = pg.world.ccm.initDelay;
    pg.world.ccm.setInitDelay({ min: parseDuration(f.min) ?? 0, max: parseDuration(f.max) ?? 0 });
    return windowed(pg, f, `CCM initializes nodes after ${f.min}–${f.max}`, () => pg.world.ccm.setInitDelay(before));
  }
  if ('kubeletStop' in fault) return stopKubelets(pg, fault.kubeletStop);
  if ('insufficientCapacity' in fault) return noCapacity(pg, fault.insufficientCapacity);
  if ('apiErrors' in fault) return apiErrors(pg, fault.apiErrors);
  if ('watchDrop' in fault) return watchDrop(pg, fault.watchDrop);
  if ('ec2Throttling' in fault) {
    pg.ec2.throttleNext((fault.ec2Throttling.action ?? 'all') as SimAction | 'all', fault.ec2Throttling.calls);
    return `EC2 throttles the next ${fault.ec2Throttling.calls} ${fault.ec2Throttling.action ?? 'API'} calls`;
  }
  if ('spotInterruption' in fault) return spotInterruption(pg, fault.spotInterruption);
  if ('rebalanceRecommendation' in fault) return rebalanceRecommendation(pg, fault.rebalanceRecommendation);
  return loseInstances(pg, fault.instanceLoss);
}
