/** What the runner observes of the playground: samples over time, prices, the Event timeline, launches. */
import { Labels } from '../../api/index.js';
import { Resources, type KubeObject, type Node, type Pod } from '../../kube/index.js';
import type { Playground } from '../playground/playground.js';
import type { LaunchGroup, Sample, TimelineEvent } from '../report/run-report.js';

interface EventObject extends KubeObject {
  type?: string;
  reason?: string;
  message?: string;
  lastTimestamp?: string;
  eventTime?: string;
  firstTimestamp?: string;
  involvedObject?: { kind?: string; name?: string; namespace?: string };
  source?: { component?: string };
}

/** The hourly price of a node from its labels, as the simulated market charges it now. */
export function priceOf(pg: Playground, labels: Record<string, string>): number {
  const type = labels[Labels.instanceType];
  if (!type) return 0;
  const market = pg.ec2.account.market;
  const price = labels[Labels.capacityType] === 'spot' ? market.spotPrice(type, labels[Labels.zone] ?? '', pg.clock.now()) : market.onDemandPrice(type);
  return price ?? 0;
}

function isReady(n: Node): boolean {
  return n.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
}

/** One sample of the world at the current simulated time. */
export async function sample(pg: Playground, t0: number): Promise<Sample> {
  const [pods, nodes, claims] = await Promise.all([pg.client.list<Pod>(Resources.pods), pg.client.list<Node>(Resources.nodes), pg.client.list(Resources.nodeClaims)]);
  const live = pods.items.filter((p) => !p.metadata.deletionTimestamp);
  const ready = nodes.items.filter(isReady);
  return {
    t: (pg.clock.now() - t0) / 1000,
    podsPending: live.filter((p) => (p.status?.phase ?? 'Pending') === 'Pending').length,
    podsRunning: live.filter((p) => p.status?.phase === 'Running').length,
    nodesReady: ready.length,
    nodesNotReady: nodes.items.length - ready.length,
    nodeClaims: claims.items.length,
    costPerHour: nodes.items.reduce((s, n) => s + priceOf(pg, n.metadata.labels ?? {}), 0),
  };
}

/** Every Event recorded so far, oldest first, with its time relative to the start. */
export async function timeline(pg: Playground, t0: number): Promise<TimelineEvent[]> {
  const events = (await pg.client.list<EventObject>(Resources.events)).items;
  return events
    .map((e) => {
      const at = Date.parse(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata.creationTimestamp ?? '');
      const o = e.involvedObject ?? {};
      return { t: Number.isFinite(at) ? (at - t0) / 1000 : 0, type: e.type ?? 'Normal', reason: e.reason ?? '', object: `${o.kind ?? ''}/${o.namespace ? `${o.namespace}/` : ''}${o.name ?? ''}`, message: e.message ?? '', source: e.source?.component };
    })
    .sort((a, b) => a.t - b.t);
}

/** Every instance launched during the run, grouped by type, zone and capacity type. */
export function launches(pg: Playground): LaunchGroup[] {
  const groups = new Map<string, LaunchGroup>();
  for (const i of pg.ec2.listInstances()) {
    const key = `${i.instanceType}/${i.zone}/${i.capacityType}`;
    const g = groups.get(key) ?? { instanceType: i.instanceType, zone: i.zone, capacityType: i.capacityType, count: 0 };
    g.count++;
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || (a.instanceType < b.instanceType ? -1 : 1));
}
