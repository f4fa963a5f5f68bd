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

/**
 * One sample of the world at the current simulated time, read from the playground's informer caches: a sample
 * every 10 simulated seconds must not list 150,000 pods through the API server.
 */
export function sample(pg: Playground, t0: number): Sample {
  const nodes = pg.informers.get<Node>(Resources.nodes).cache.list();
  let podsPending = 0;
  let podsRunning = 0;
  for (const p of pg.informers.get<Pod>(Resources.pods).cache.list()) {
    if (p.metadata.deletionTimestamp) continue;
    const phase = p.status?.phase ?? 'Pending';
    if (phase === 'Pending') podsPending++;
    else if (phase === 'Running') podsRunning++;
  }
  const ready = nodes.filter(isReady).length;
  return {
    t: (pg.clock.now() - t0) / 1000,
    podsPending,
    podsRunning,
    nodesReady: ready,
    nodesNotReady: nodes.length - ready,
    nodeClaims: pg.informers.get(Resources.nodeClaims).cache.list().length,
    costPerHour: nodes.reduce((s, n) => s + priceOf(pg, n.metadata.labels ?? {}), 0),
  };
}

/** One Event as the timeline shows it. */
function timelineRow(e: EventObject, t0: number): TimelineEvent {
  const at = Date.parse(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata.creationTimestamp ?? '');
  const o = e.involvedObject ?? {};
  return { t: Number.isFinite(at) ? (at - t0) / 1000 : 0, type: e.type ?? 'Normal', reason: e.reason ?? '', object: `${o.kind ?? ''}/${o.namespace ? `${o.namespace}/` : ''}${o.name ?? ''}`, message: e.message ?? '', source: e.source?.component };
}

/**
 * Every Event recorded so far, oldest first, with its time relative to the start. Read in pages and kept only as
 * timeline rows: a scale run has hundreds of thousands of Events.
 */
export async function timeline(pg: Playground, t0: number): Promise<TimelineEvent[]> {
  const rows: TimelineEvent[] = [];
  let token: string | undefined;
  do {
    const page = await pg.client.list<EventObject>(Resources.events, { limit: 1000, continue: token });
    for (const e of page.items) rows.push(timelineRow(e, t0));
    token = page.metadata.continue || undefined;
  } while (token);
  return rows.sort((a, b) => a.t - b.t);
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
