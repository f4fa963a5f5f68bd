/** What the runner observes of the playground: samples over time, prices, the Event timeline, launches. */
import { Labels } from '../../api/index.js';
import { Resources, type KubeObject, type Node, type Pod } from '../../kube/index.js';
import { ebsAttachLimitOf } from '../kubelet/csi-node.js';
import type { Playground } from '../playground/playground.js';
import type { CloudView } from './fewest-per-zone.js';
import type { LaunchGroup, Sample, Timeline, TimelineEvent } from '../report/run-report.js';

/** An Event as the timeline reads it. */
export interface EventObject extends KubeObject {
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
  const price =
    labels[Labels.capacityType] === 'spot'
      ? market.spotPrice(type, labels[Labels.zone] ?? '', pg.clock.now())
      : market.onDemandPrice(type);
  return price ?? 0;
}

/** The simulated cloud as expectations read it: its catalog, attach limits and prices now. */
export function cloudView(pg: Playground): CloudView {
  const account = pg.ec2.account;
  const types = account.catalog.map((e) => ({
    name: e.name,
    labels: e.labels,
    allocatable: e.allocatable,
    volumeAttachLimit: ebsAttachLimitOf(e.labels[Labels.instanceHypervisor]),
  }));
  return {
    types: () => types,
    price: (type, zone, capacityType) => {
      const i = account.zones.indexOf(zone);
      if (i < 0 || !account.market.offered(type, zone, i)) return undefined;
      return capacityType === 'spot'
        ? account.market.spotPrice(type, zone, pg.clock.now())
        : account.market.onDemandPrice(type);
    },
    priceOf: (labels) => priceOf(pg, labels),
  };
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
  const fleet: Record<string, number> = {};
  for (const n of nodes) {
    const l = n.metadata.labels ?? {};
    const key = fleetKey(l[Labels.instanceType] ?? '?', l[Labels.capacityType] ?? '?', l[Labels.zone] ?? '?');
    fleet[key] = (fleet[key] ?? 0) + 1;
  }
  return {
    t: (pg.clock.now() - t0) / 1000,
    podsPending,
    podsRunning,
    nodesReady: ready,
    nodesNotReady: nodes.length - ready,
    nodeClaims: pg.informers.get(Resources.nodeClaims).cache.list().length,
    costPerHour: nodes.reduce((s, n) => s + priceOf(pg, n.metadata.labels ?? {}), 0),
    fleet,
  };
}

/** The key of a sample's fleet entry: `instance type/capacity type/zone`. */
export function fleetKey(instanceType: string, capacityType: string, zone: string): string {
  return `${instanceType}/${capacityType}/${zone}`;
}

/** One Event as the timeline shows it. */
function timelineRow(e: EventObject, t0: number): TimelineEvent {
  const at = Date.parse(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata.creationTimestamp ?? '');
  const o = e.involvedObject ?? {};
  return {
    t: Number.isFinite(at) ? (at - t0) / 1000 : 0,
    type: e.type ?? 'Normal',
    reason: e.reason ?? '',
    object: `${o.kind ?? ''}/${o.namespace ? `${o.namespace}/` : ''}${o.name ?? ''}`,
    message: e.message ?? '',
    source: e.source?.component,
  };
}

/** The timeline keeps at most this many rows: a scale run records hundreds of thousands of Events. */
export const maxTimelineRows = 5000;

/** Tenon's own Events and every Warning come first in the timeline; the world's Normal chatter fills what is left. */
function important(e: TimelineEvent): boolean {
  return e.source === 'karpenter' || e.type === 'Warning';
}

/** The earliest `max` rows seen, kept by sorting and cutting whenever twice as many have gathered. */
class EarliestRows {
  readonly rows: TimelineEvent[] = [];

  constructor(private readonly max: number) {}

  add(row: TimelineEvent): void {
    this.rows.push(row);
    if (this.rows.length >= 2 * this.max) this.cut();
  }

  /** Sorted by time, at most `max` rows. */
  cut(): TimelineEvent[] {
    this.rows.sort((a, b) => a.t - b.t);
    this.rows.length = Math.min(this.rows.length, this.max);
    return this.rows;
  }
}

/**
 * A bounded timeline built one Event at a time: the earliest of Tenon's Events and Warnings first, then the earliest
 * of the rest, at most `max` rows in all; what was left out is counted by reason.
 */
export class TimelineBuilder {
  private readonly first: EarliestRows;
  private readonly rest: EarliestRows;
  private total = 0;
  private readonly byReason = new Map<string, number>();

  /** Starts an empty timeline of at most `max` rows, times relative to `t0`. */
  constructor(
    private readonly t0: number,
    private readonly max = maxTimelineRows,
  ) {
    this.first = new EarliestRows(max);
    this.rest = new EarliestRows(max);
  }

  /** Takes one Event. */
  add(e: EventObject): void {
    const row = timelineRow(e, this.t0);
    this.total++;
    this.byReason.set(row.reason, (this.byReason.get(row.reason) ?? 0) + 1);
    (important(row) ? this.first : this.rest).add(row);
  }

  /** The rows kept, oldest first, and what was left out. */
  result(): Timeline {
    const kept = this.first.cut();
    const rows = [...kept, ...this.rest.cut().slice(0, this.max - kept.length)].sort((a, b) => a.t - b.t);
    const left = new Map(this.byReason);
    for (const r of rows) left.set(r.reason, (left.get(r.reason) ?? 0) - 1);
    const omittedByReason = Object.fromEntries([...left].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]));
    return { rows, omitted: this.total - rows.length, omittedByReason };
  }
}

/** The Events recorded so far as a bounded timeline (see TimelineBuilder), read in pages. */
export async function timeline(pg: Playground, t0: number): Promise<Timeline> {
  const builder = new TimelineBuilder(t0);
  let token: string | undefined;
  do {
    const page = await pg.observer.client.list<EventObject>(Resources.events, { limit: 1000, continue: token });
    for (const e of page.items) builder.add(e);
    token = page.metadata.continue || undefined;
  } while (token);
  return builder.result();
}

/** Instances grouped by type, zone and capacity type: every one launched during the run, or `states` only. */
export function launches(pg: Playground, states?: Array<'pending' | 'running'>): LaunchGroup[] {
  const groups = new Map<string, LaunchGroup>();
  for (const i of pg.ec2.listInstances({ states })) {
    // An instance in a capacity reservation is an on-demand instance to EC2, reserved capacity to the cluster.
    const capacityType = i.capacityReservationId === undefined ? i.capacityType : 'reserved';
    const key = `${i.instanceType}/${i.zone}/${capacityType}`;
    const g = groups.get(key) ?? { instanceType: i.instanceType, zone: i.zone, capacityType, count: 0 };
    g.count++;
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || (a.instanceType < b.instanceType ? -1 : 1));
}
