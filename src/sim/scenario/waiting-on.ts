/**
 * What a run is waiting on, in a few lines: the simulated clock (what holds it back), the pods that are not
 * running, the NodeClaims that are not ready and the nodes that are not Ready or are going away. Read from the
 * informer caches only, so it answers even when the API server does not.
 */
import { Resources, type KubeObject, type Node, type Pod } from '../../kube/index.js';
import type { Playground } from '../playground/playground.js';

/** A condition as Pods, Nodes and NodeClaims carry it. */
interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** A NodeClaim as far as the description reads it. */
interface NodeClaimView extends KubeObject {
  status?: { conditions?: Condition[]; nodeName?: string; providerID?: string };
}

function clip(text: string, max = 160): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function conditionText(c: Condition): string {
  return `${c.type}=${c.status}${c.reason ? ` ${c.reason}` : ''}${c.message ? `: ${clip(c.message, 120)}` : ''}`;
}

/** `name (deleting)` when it is. */
function named(o: KubeObject): string {
  const ns = o.metadata.namespace ? `${o.metadata.namespace}/` : '';
  return `${ns}${o.metadata.name}${o.metadata.deletionTimestamp ? ' (deleting)' : ''}`;
}

/** The first `max` lines of a section, and how many more there were. */
function section(title: string, lines: string[], max: number): string[] {
  if (lines.length === 0) return [`${title}: none`];
  const more = lines.length > max ? [`  … and ${lines.length - max} more`] : [];
  return [`${title} (${lines.length}):`, ...lines.slice(0, max).map((l) => `  ${l}`), ...more];
}

function podLine(p: Pod): string {
  const phase = p.status?.phase ?? 'Pending';
  const false_ = (p.status?.conditions ?? []).filter((c) => c.status !== 'True').map(conditionText);
  // A nominated node (set by the scheduler's preemption) keeps Tenon, as Karpenter, from provisioning for the pod.
  const nominated = p.status?.nominatedNodeName ? ` nominated to ${p.status.nominatedNodeName}` : '';
  return `${named(p)} ${phase} on ${p.spec.nodeName ?? '-'}${nominated}${false_.length ? `; ${false_.join('; ')}` : ''}`;
}

function nodeClaimLine(c: NodeClaimView): string {
  const conditions = c.status?.conditions ?? [];
  const notTrue = conditions.filter((x) => x.status !== 'True').map(conditionText);
  const node = c.status?.nodeName ?? 'no node';
  return `${named(c)} ${node}; ${notTrue.length ? notTrue.join('; ') : 'all conditions True'}`;
}

function nodeLine(n: Node): string {
  const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
  const taints = (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`);
  return `${named(n)} Ready=${ready?.status ?? 'unreported'}${n.spec?.unschedulable ? ' cordoned' : ''}${
    taints.length ? ` taints ${taints.join(',')}` : ''
  }`;
}

function isRunning(p: Pod): boolean {
  return p.status?.phase === 'Running' && !p.metadata.deletionTimestamp;
}

function isSettledNode(n: Node): boolean {
  const ready = n.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  return ready && !n.metadata.deletionTimestamp && !n.spec?.unschedulable;
}

function isSettledClaim(c: NodeClaimView): boolean {
  const conditions = c.status?.conditions ?? [];
  return !c.metadata.deletionTimestamp && conditions.some((x) => x.type === 'Ready' && x.status === 'True');
}

/** The clock's line: simulated now, what holds it back (requests in flight, recent activity), the next timer. */
function clockLine(pg: Playground): string[] {
  const s = pg.clock.state();
  const next = s.nextDue === undefined ? 'none' : `in ${((s.nextDue - pg.clock.now()) / 1000).toFixed(1)} s`;
  return [
    `simulated time ${new Date(pg.clock.now()).toISOString()}: ${s.inFlight} request(s) in flight, ` +
      `last activity ${(s.quietMs / 1000).toFixed(1)} s ago (${s.activity} in all), ${s.timers} timer(s), next ${next}`,
    ...pg.requests.list().map((r) => `  in flight: ${r}`),
  ];
}

/** What the world looks like to a run that waits: see the module comment. At most `max` lines per section. */
export function describeWaiting(pg: Playground, max = 8): string {
  const pods = pg.informers.get<Pod>(Resources.pods).cache.list();
  const claims = pg.informers.get<NodeClaimView>(Resources.nodeClaims).cache.list();
  const nodes = pg.informers.get<Node>(Resources.nodes).cache.list();
  return [
    ...clockLine(pg),
    `pods: ${pods.filter(isRunning).length} of ${pods.length} running`,
    ...section('pods not running', pods.filter((p) => !isRunning(p)).map(podLine), max),
    ...section(
      `nodeclaims not ready (of ${claims.length})`,
      claims.filter((c) => !isSettledClaim(c)).map(nodeClaimLine),
      max,
    ),
    ...section(
      `nodes not Ready or leaving (of ${nodes.length})`,
      nodes.filter((n) => !isSettledNode(n)).map(nodeLine),
      max,
    ),
  ].join('\n');
}

function isSettledPod(p: Pod): boolean {
  const phase = p.status?.phase;
  return !p.metadata.deletionTimestamp && (phase === 'Running' || phase === 'Succeeded' || phase === 'Failed');
}

/** A node the cluster has finished with for now: Ready and staying, or silent and already marked Unknown. */
function isQuietNode(n: Node): boolean {
  const ready = n.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  return (ready === 'True' || ready === 'Unknown') && !n.metadata.deletionTimestamp && !n.spec?.unschedulable;
}

/**
 * Whether there is nothing to wait on: every pod running (or finished), every NodeClaim Ready, every node Ready and
 * staying, and every kubelet up. A stopped kubelet counts once its node is Unknown: until then its node says Ready,
 * and the node lifecycle controller is still to notice (on the wall clock, when attached); after, what remains
 * (node repair's toleration) runs on Tenon's clock.
 */
export function nothingWaiting(pg: Playground): boolean {
  const nodes = pg.informers.get<Node>(Resources.nodes).cache;
  const unknown = (name: string): boolean =>
    nodes.get(name)?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'Unknown';
  return (
    pg.informers.get<Pod>(Resources.pods).cache.list().every(isSettledPod) &&
    pg.informers.get<NodeClaimView>(Resources.nodeClaims).cache.list().every(isSettledClaim) &&
    nodes.list().every(isQuietNode) &&
    pg.world.kubelets
      .list()
      .every((k) => k.phase === 'registered' || k.phase === 'off' || (k.phase === 'stopped' && unknown(k.nodeName)))
  );
}
