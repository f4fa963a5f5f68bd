/** Evaluates a scenario expectation against the cluster, through the API like any client. */
import {
  Resources,
  type KubeClient,
  type KubeObject,
  type Node,
  type Pod,
  type ResourceType,
} from '../../kube/index.js';
import { fewestPerZone, type CloudView } from './fewest-per-zone.js';
import type { CountableKind, CountBounds, Expectation } from './format.js';

/** The result of checking one expectation. */
export interface Outcome {
  passed: boolean;
  observed: string;
}

/** What expectations need besides the API: the simulated cloud's prices and catalog. */
export interface ExpectationContext {
  client: KubeClient;
  cloud: CloudView;
}

interface EventObject extends KubeObject {
  type?: string;
  reason?: string;
  message?: string;
  involvedObject?: { kind?: string; name?: string; namespace?: string };
}

interface Conditioned extends KubeObject {
  status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> };
}

const countable: Record<CountableKind, ResourceType> = {
  Pod: Resources.pods,
  Node: Resources.nodes,
  NodeClaim: Resources.nodeClaims,
  PersistentVolumeClaim: Resources.persistentVolumeClaims,
  PersistentVolume: Resources.persistentVolumes,
};

const conditioned = {
  NodeClaim: Resources.nodeClaims,
  NodePool: Resources.nodePools,
  EC2NodeClass: Resources.ec2NodeClasses,
  Node: Resources.nodes,
  NodeOverlay: Resources.nodeOverlays,
} as const;

/** A one-line description of an expectation for reports. */
export function describeExpectation(e: Expectation): string {
  if ('allPodsRunning' in e) return 'all pods Running';
  if ('count' in e)
    return `${e.count.kind}s${e.count.labelSelector ? ` (${e.count.labelSelector})` : ''} ${boundsText(e.count)}`;
  if ('noNodeTaint' in e) return `no Node carries taint ${e.noNodeTaint}`;
  if ('event' in e) return `an Event ${e.event.reason}${e.event.kind ? ` on a ${e.event.kind}` : ''} exists`;
  if ('noEvent' in e) return `no Event ${e.noEvent.reason}${e.noEvent.kind ? ` on a ${e.noEvent.kind}` : ''}`;
  if ('condition' in e)
    return `${e.condition.kind}${e.condition.name ? ` ${e.condition.name}` : 's'} ${e.condition.type}=${e.condition.status}`;
  if ('costPerHour' in e) return `cost per hour <= $${e.costPerHour.max}`;
  if ('fewestPerZone' in e) return 'no two nodes of one zone fit on one node that costs no more';
  return `no NodeClaim deleted for ${e.nodeClaimNeverDeleted.reason}`;
}

function boundsText(b: CountBounds): string {
  const parts: string[] = [];
  if (b.equals !== undefined) parts.push(`= ${b.equals}`);
  if (b.min !== undefined) parts.push(`>= ${b.min}`);
  if (b.max !== undefined) parts.push(`<= ${b.max}`);
  return parts.join(' and ') || 'counted';
}

function within(n: number, b: CountBounds): boolean {
  return (
    (b.equals === undefined || n === b.equals) &&
    (b.min === undefined || n >= b.min) &&
    (b.max === undefined || n <= b.max)
  );
}

async function list<T extends KubeObject>(
  client: KubeClient,
  rt: ResourceType<T>,
  labelSelector?: string,
  fieldSelector?: string,
): Promise<T[]> {
  return (await client.list<T>(rt, { labelSelector, fieldSelector })).items;
}

async function events(client: KubeClient, reason: string, kind?: string): Promise<EventObject[]> {
  const all = await list<EventObject>(client, Resources.events);
  return all.filter((e) => e.reason === reason && (!kind || e.involvedObject?.kind === kind));
}

/**
 * How many objects of a kind exist, from a one-item page's remainingItemCount: checking a wait every few simulated
 * seconds must not list 150,000 pods.
 */
async function countAll(client: KubeClient, rt: ResourceType<KubeObject>): Promise<number> {
  const page = await client.list(rt, { limit: 1 });
  return page.items.length + (page.metadata.remainingItemCount ?? 0);
}

/** Pods not Running (nor Succeeded), by a field selector: the only pods this check reads. */
const notRunning = 'status.phase!=Running,status.phase!=Succeeded';

/**
 * All pods not being deleted are Running (or Succeeded). Only pods that are not are listed, a page at a time, and
 * only while every one seen so far is being deleted: during a scale-up of 150,000 pods one small page answers.
 * Pods being deleted past the pages read are counted as not Running in the observed value.
 */
async function podsRunning(client: KubeClient): Promise<Outcome> {
  const all = await countAll(client, Resources.pods);
  const live: Pod[] = [];
  let deleting = 0;
  let others = 0;
  let cont: string | undefined;
  do {
    const page = await client.list<Pod>(Resources.pods, { fieldSelector: notRunning, limit: 500, continue: cont });
    if (cont === undefined) others = page.items.length + (page.metadata.remainingItemCount ?? 0);
    for (const p of page.items) {
      if (p.metadata.deletionTimestamp) deleting++;
      else live.push(p);
    }
    cont = page.metadata.continue || undefined;
  } while (cont && live.length === 0);
  const total = all - deleting;
  const running = all - others;
  const shown = live.slice(0, 3).map((p) => `${p.metadata.name} ${p.status?.phase ?? 'Pending'}`);
  return {
    passed: total > 0 && live.length === 0,
    observed: `${running}/${total} Running${shown.length ? ` (e.g. ${shown.join(', ')})` : ''}`,
  };
}

async function nodeTaint(client: KubeClient, key: string): Promise<Outcome> {
  const tainted = (await list<Node>(client, Resources.nodes))
    .filter((n) => n.spec?.taints?.some((t) => t.key === key))
    .map((n) => n.metadata.name ?? '');
  return {
    passed: tainted.length === 0,
    observed: tainted.length
      ? `on ${tainted.slice(0, 5).join(', ')}${tainted.length > 5 ? ` and ${tainted.length - 5} more` : ''}`
      : 'none',
  };
}

async function condition(
  client: KubeClient,
  c: Extract<Expectation, { condition: unknown }>['condition'],
): Promise<Outcome> {
  const objs = (await list<Conditioned>(client, conditioned[c.kind])).filter(
    (o) => !c.name || o.metadata.name === c.name,
  );
  const off = objs.filter((o) => o.status?.conditions?.find((x) => x.type === c.type)?.status !== c.status);
  const first = off[0];
  const seen = first?.status?.conditions?.find((x) => x.type === c.type);
  const detail = first
    ? `; ${first.metadata.name}: ${seen ? `${seen.status} (${seen.reason ?? ''}: ${seen.message ?? ''})` : 'no such condition'}`
    : '';
  return {
    passed: objs.length > 0 && off.length === 0,
    observed: `${objs.length - off.length}/${objs.length} hold it${detail}`,
  };
}

async function cost(ctx: ExpectationContext, max: number): Promise<Outcome> {
  const total = (await list<Node>(ctx.client, Resources.nodes)).reduce(
    (s, n) => s + ctx.cloud.priceOf(n.metadata.labels ?? {}),
    0,
  );
  return { passed: total <= max + 1e-9, observed: `$${total.toFixed(4)}/h` };
}

function eventOutcome(all: readonly EventObject[], type: string | undefined, wanted: boolean): Outcome {
  const found = all.filter((x) => !type || x.type === type);
  const first = found[0];
  return {
    passed: wanted === found.length > 0,
    observed: first ? `${found.length}, e.g. ${first.involvedObject?.name ?? ''}: ${first.message ?? ''}` : 'none',
  };
}

/** Checks one expectation now. */
export async function evaluate(ctx: ExpectationContext, e: Expectation): Promise<Outcome> {
  const { client } = ctx;
  if ('allPodsRunning' in e) return podsRunning(client);
  if ('count' in e) {
    const rt = countable[e.count.kind];
    const n = e.count.labelSelector
      ? (await list(client, rt, e.count.labelSelector)).length
      : await countAll(client, rt);
    return { passed: within(n, e.count), observed: `${n}` };
  }
  if ('noNodeTaint' in e) return nodeTaint(client, e.noNodeTaint);
  if ('event' in e) return eventOutcome(await events(client, e.event.reason, e.event.kind), e.event.type, true);
  if ('noEvent' in e) return eventOutcome(await events(client, e.noEvent.reason, e.noEvent.kind), undefined, false);
  if ('nodeClaimNeverDeleted' in e)
    return eventOutcome(await events(client, e.nodeClaimNeverDeleted.reason, 'NodeClaim'), undefined, false);
  if ('condition' in e) return condition(client, e.condition);
  if ('fewestPerZone' in e) return fewestPerZone(client, ctx.cloud);
  return cost(ctx, e.costPerHour.max);
}
