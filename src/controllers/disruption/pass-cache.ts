/**
 * Karpenter's "already consolidated" shortcut: a pass that found nothing is not repeated while the cluster stays
 * as it was. The cluster is summed up in a fingerprint of everything a pass reads: nodes and their flags, the
 * identity of every pod object (informers replace an object on every change), pending and in-flight capacity,
 * NodePools, PDBs, DaemonSets, the instance type offerings, and what the clock alone changes — which nodes are
 * past consolidateAfter and what the budgets allow now. As in Karpenter, the shortcut expires after five
 * minutes anyway, for whatever the fingerprint cannot see (a disruption cost that shifts as nodes age).
 */
import { createHash } from 'node:crypto';
import { allowances } from './budgets/budgets.js';
import { decide, type DecideOptions, type Decision } from './decide.js';
import type { RemovalSimulator } from './simulation/removal-simulator.js';
import type { DisruptionNode, DisruptionReason, DisruptionView } from './types.js';

/** Karpenter re-checks a consolidated cluster at least this often even when nothing changed. */
export const ConsolidatedStateMaxAgeMs = 5 * 60_000;

const reasons: readonly DisruptionReason[] = ['Drifted', 'Empty', 'Underutilized'];
/** Numbers standing for object identities, the same for one object as long as the table lives. */
export class ObjectIds {
  private readonly ids = new WeakMap<object, number>();
  private nextId = 0;

  /** The number of `o`. */
  of(o: object): number {
    let id = this.ids.get(o);
    if (id === undefined) {
      id = ++this.nextId;
      this.ids.set(o, id);
    }
    return id;
  }
}

function nodePart(n: DisruptionNode, view: DisruptionView, ids: ObjectIds): string {
  const pool = view.nodePools.find((p) => p.name === n.nodePool);
  const after = pool?.consolidateAfterMs;
  const settled = after !== undefined && view.now >= (n.lastPodEventTime ?? 0) + after;
  const { pods, ...rest } = n;
  return `${JSON.stringify(rest)}#${settled ? 1 : 0}#${(pods ?? []).map((p) => ids.of(p)).join(',')}`;
}

/**
 * Everything one pass depends on, as a string that changes whenever the pass could decide differently; `ids`
 * must be the same table for fingerprints that are compared.
 */
export function clusterFingerprint(view: DisruptionView, ids: ObjectIds): string {
  const parts = view.nodes.map((n) => nodePart(n, view, ids));
  parts.push(view.pendingPods.map((p) => ids.of(p)).join(','), JSON.stringify(view.inFlight));
  parts.push(JSON.stringify([view.nodePools, view.schedulingNodePools, view.pdbs, view.daemonSets, view.spotToSpot]));
  for (const [pool, types] of Object.entries(view.instanceTypesByNodePool))
    parts.push(`${pool}:${types.map((t) => `${t.name}@${ids.of(t.offerings)}`).join(',')}`);
  for (const reason of reasons) {
    const a = allowances(view.nodePools, view.nodes, { reason, now: view.now });
    parts.push(`${reason}:${[...a].map(([k, v]) => `${k}=${v.allowed}/${v.remaining}`).join(',')}`);
  }
  return parts.join('\n');
}

/** Options of the pass runner. */
export interface PassOptions extends Omit<DecideOptions, 'simulator'> {
  /** The removal simulator for a view (decide()'s own when undefined). */
  simulatorFor?: (view: DisruptionView) => RemovalSimulator | undefined;
}

/** Runs passes, skipping one whose cluster is unchanged since a pass that found nothing. */
export class DisruptionPasses {
  private fruitless: { fingerprint: string; at: number } | undefined;
  private readonly ids = new ObjectIds();

  /** `opts` are handed to every decide(). */
  constructor(private readonly opts: PassOptions = {}) {}

  /** decide(view), or undefined — with nothing simulated — when the last pass found nothing in this same cluster. */
  run(view: DisruptionView): Decision | undefined {
    // Kept as a digest: the text runs to megabytes in a cluster of 150,000 pods.
    const fingerprint = createHash('sha1').update(clusterFingerprint(view, this.ids)).digest('base64');
    const last = this.fruitless;
    if (last && last.fingerprint === fingerprint && view.now - last.at < ConsolidatedStateMaxAgeMs) return undefined;
    const { simulatorFor, ...rest } = this.opts;
    const decision = decide(view, { ...rest, simulator: simulatorFor?.(view) });
    // A pass cut short found nothing among the candidates it reached: the next one must look again.
    this.fruitless = decision.command || decision.incomplete ? undefined : { fingerprint, at: view.now };
    return decision;
  }

  /** When the last fruitless full pass ran, if the last pass was one. */
  fruitlessSince(): number | undefined {
    return this.fruitless?.at;
  }

  /** Forgets the last fruitless pass, so the next one runs whatever the fingerprint says. */
  reset(): void {
    this.fruitless = undefined;
  }
}
