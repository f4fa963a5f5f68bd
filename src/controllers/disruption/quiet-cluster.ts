/**
 * The "already consolidated" shortcut taken before the view is even built, as Karpenter checks its cluster
 * state's consolidated flag before computing candidates: after a pass that found nothing, passes are skipped
 * while no informer delivered any change and no clock boundary the view depends on has passed (a node reaching
 * its consolidateAfter, or the five minutes after which Karpenter looks again anyway). A view with pending pods
 * or in-flight NodeClaims, or a NodePool whose budgets follow a schedule, is never treated as quiet: those change
 * with the clock alone. Building the view of a large idle cluster every 10 s was most of an idle controller's CPU.
 * A Node update that only renews its conditions' heartbeat times is not a change: a kubelet posts one every five
 * minutes, so in a cluster of 500 nodes almost every 10 s poll would see one (Karpenter, too, marks its cluster
 * unconsolidated only on a node's add, delete, initialization or deletion mark, never on a status heartbeat).
 */
import type { Node } from '../../kube/index.js';
import type { ClusterInformers } from '../../state/informers.js';
import { ConsolidatedStateMaxAgeMs } from './pass-cache.js';
import type { DisruptionView } from './types.js';

/** The first moment after `view.now` at which a node reaches its NodePool's consolidateAfter; Infinity if none. */
export function nextSettleAt(view: DisruptionView): number {
  let next = Infinity;
  for (const n of view.nodes) {
    const after = view.nodePools.find((p) => p.name === n.nodePool)?.consolidateAfterMs;
    if (after === undefined) continue;
    const at = (n.lastPodEventTime ?? 0) + after;
    if (at > view.now && at < next) next = at;
  }
  return next;
}

/** Whether `key` is a field a kubelet's status post renews without anything else changing; no decision reads them. */
const isHeartbeatField = (key: string): boolean =>
  key === 'resourceVersion' || key === 'managedFields' || key === 'lastHeartbeatTime';

/** True when `b` differs from `a` in heartbeat fields only (a status post of an unchanged node). */
export function heartbeatOnly(a: Node, b: Node): boolean {
  const text = (n: Node): string => JSON.stringify(n, (k, v: unknown) => (isHeartbeatField(k) ? undefined : v));
  return text(a) === text(b);
}

/** Whether only informer events can change what a pass over `view` decides (until its next clock boundary). */
function changesOnlyWithEvents(view: DisruptionView): boolean {
  return (
    view.pendingPods.length === 0 &&
    view.inFlight.length === 0 &&
    !view.nodePools.some((p) => p.budgets.some((b) => b.schedule !== undefined))
  );
}

/** Counts the informers' changes and remembers the last fruitless pass. */
export class QuietCluster {
  private generation = 0;
  private quiet: { generation: number; until: number } | undefined;

  /** Counts every add, update and delete of every informer the view reads, but a Node's heartbeat. */
  constructor(informers: ClusterInformers) {
    const bump = (): void => {
      this.generation++;
    };
    for (const [name, inf] of Object.entries(informers) as Array<[string, ClusterInformers[keyof ClusterInformers]]>)
      if (name !== 'nodes') inf.on({ add: bump, update: bump, delete: bump });
    informers.nodes.on({ add: bump, update: (a, b) => (heartbeatOnly(a, b) ? undefined : bump()), delete: bump });
  }

  /** True while nothing changed since a fruitless pass and `now` is before its next clock boundary. */
  unchanged(now: number): boolean {
    const q = this.quiet;
    return q !== undefined && q.generation === this.generation && now < q.until;
  }

  /**
   * Records a pass over `view` (taken at generation `generation`, read before the view was built) that found
   * nothing; `since` is when the pass cache last ran a full pass on this same cluster.
   */
  fruitless(view: DisruptionView, generation: number, since: number = view.now): void {
    if (!changesOnlyWithEvents(view)) return this.forget();
    this.quiet = { generation, until: Math.min(since + ConsolidatedStateMaxAgeMs, nextSettleAt(view)) };
  }

  /** The change count now (read it before building a view). */
  current(): number {
    return this.generation;
  }

  /** Drops the shortcut: the next pass builds its view. */
  forget(): void {
    this.quiet = undefined;
  }
}
