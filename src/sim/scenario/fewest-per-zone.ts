/**
 * The `fewestPerZone` expectation (SCENARIOS.md S4: "the NodeClaims launched are the fewest that fit the pods zone by
 * zone"), read under a cost objective: no two nodes of one NodePool in one zone could be a single node, of an
 * instance type the NodePool allows and the cloud offers there, that holds both nodes' pods and volumes and costs no
 * more than the two. A fleet split by a late pass (a second launch for pods an in-flight node could have taken)
 * fails it; a split the prices pay for (a small node beside a full one, cheaper than one larger node) does not.
 * Computed from the API's Nodes and Pods and the simulated cloud's catalog, independently of Tenon's solver.
 */
import { Labels } from '../../api/index.js';
import type { NodePool } from '../../api/index.js';
import type { KubeObject } from '../../kube/index.js';
import { Resources, type KubeClient, type Node, type Pod } from '../../kube/index.js';
import { Requirements } from '../../scheduling/requirements/requirements.js';
import { podRequests } from '../../scheduling/resources/pod-requests.js';
import {
  addInto,
  fitsIn,
  fromResourceList,
  maxInto,
  type Resources as Amounts,
} from '../../scheduling/resources/resources.js';

/** An instance type as the simulated cloud offers it: what a node of it registers, and its EBS attach limit. */
export interface OfferedType {
  name: string;
  labels: Record<string, string>;
  allocatable: Record<string, string>;
  volumeAttachLimit: number;
}

/** What the check reads besides the API. */
export interface CloudView {
  /** The catalog's instance types. */
  types(): readonly OfferedType[];
  /** The hourly price of `type` in `zone` for a capacity type now; undefined where it is not offered. */
  price(type: string, zone: string, capacityType: string): number | undefined;
  /** The hourly price of a node from its labels. */
  priceOf(labels: Record<string, string>): number;
}

/** A node's load: its pods' requests (DaemonSet pods apart), its volumes, and its DaemonSet pods' requests. */
interface Load {
  node: Node;
  requests: Amounts;
  volumes: number;
  daemons: Amounts;
}

const volumesKey = 'volumes';

function isDaemon(p: Pod): boolean {
  return (p.metadata.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');
}

function loads(nodes: readonly Node[], pods: readonly Pod[]): Map<string, Load> {
  const out = new Map<string, Load>();
  for (const node of nodes) out.set(node.metadata.name ?? '', { node, requests: {}, volumes: 0, daemons: {} });
  for (const p of pods) {
    const load = out.get(p.spec?.nodeName ?? '');
    if (!load || p.metadata.deletionTimestamp) continue;
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    addInto(isDaemon(p) ? load.daemons : load.requests, podRequests(p));
    load.volumes += (p.spec?.volumes ?? []).filter((v) => v.persistentVolumeClaim).length;
  }
  return out;
}

/** What one node holding both loads needs: both nodes' pods, and one set of DaemonSet pods (the larger). */
function merged(a: Load, b: Load): Amounts {
  const need: Amounts = { ...a.requests };
  addInto(need, b.requests);
  const daemons: Amounts = { ...a.daemons };
  maxInto(daemons, b.daemons);
  addInto(need, daemons);
  need[volumesKey] = a.volumes + b.volumes;
  return need;
}

/** The cheapest offered type the NodePool allows in `zone` that holds `need`, with its price. */
function cheapestHolding(
  need: Amounts,
  o: { zone: string; pool: Requirements; cloud: CloudView },
): { name: string; capacityType: string; price: number } | undefined {
  let best: { name: string; capacityType: string; price: number } | undefined;
  for (const t of o.cloud.types()) {
    const room = { ...fromResourceList(t.allocatable), [volumesKey]: t.volumeAttachLimit };
    if (!fitsIn(need, room)) continue;
    for (const capacityType of ['spot', 'on-demand']) {
      const labels = { ...t.labels, [Labels.capacityType]: capacityType, [Labels.zone]: o.zone };
      if (!o.pool.matchesLabels(labels)) continue;
      const price = o.cloud.price(t.name, o.zone, capacityType);
      if (price !== undefined && (!best || price < best.price)) best = { name: t.name, capacityType, price };
    }
  }
  return best;
}

/** Nodes grouped by NodePool and zone. */
function byPoolAndZone(load: ReadonlyMap<string, Load>): Load[][] {
  const groups = new Map<string, Load[]>();
  for (const l of load.values()) {
    const labels = l.node.metadata.labels ?? {};
    const key = `${labels[Labels.nodePool] ?? ''}/${labels[Labels.zone] ?? ''}`;
    const group = groups.get(key);
    if (group) group.push(l);
    else groups.set(key, [l]);
  }
  return [...groups.values()];
}

/** The first pair of a group's nodes that one node holds for no more than the two cost, described; else undefined. */
function mergeablePair(group: readonly Load[], pool: Requirements, cloud: CloudView): string | undefined {
  for (let i = 0; i < group.length; i++) {
    for (let j = i + 1; j < group.length; j++) {
      const a = group[i] as Load;
      const b = group[j] as Load;
      const labels = a.node.metadata.labels ?? {};
      const zone = labels[Labels.zone] ?? '';
      const both = cloud.priceOf(labels) + cloud.priceOf(b.node.metadata.labels ?? {});
      const one = cheapestHolding(merged(a, b), { zone, pool, cloud });
      if (one && one.price <= both + 1e-9)
        return `${a.node.metadata.name} and ${b.node.metadata.name} (${zone}, $${both.toFixed(4)}/h) fit on one ${one.capacityType} ${one.name} at $${one.price.toFixed(4)}/h`;
    }
  }
  return undefined;
}

/** The outcome of the check: passed, or the first pair of nodes that one node would replace for no more. */
export async function fewestPerZone(
  client: KubeClient,
  cloud: CloudView,
): Promise<{ passed: boolean; observed: string }> {
  const nodes = (await client.list<Node>(Resources.nodes)).items.filter(
    (n) => !n.metadata.deletionTimestamp && n.metadata.labels?.[Labels.nodePool],
  );
  const pools = new Map(
    (await client.list<NodePool & KubeObject>(Resources.nodePools)).items.map((p) => [
      p.metadata.name ?? '',
      Requirements.fromSelector(p.spec?.template?.spec?.requirements),
    ]),
  );
  const groups = byPoolAndZone(loads(nodes, (await client.list<Pod>(Resources.pods)).items));
  for (const group of groups) {
    const pool = pools.get(group[0]?.node.metadata.labels?.[Labels.nodePool] ?? '');
    const pair = pool && mergeablePair(group, pool, cloud);
    if (pair) return { passed: false, observed: pair };
  }
  return { passed: true, observed: `${nodes.length} nodes in ${groups.length} NodePool zones, none mergeable` };
}
