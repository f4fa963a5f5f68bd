/**
 * Cluster state the controllers decide on: the informers' caches joined up (nodes <-> NodeClaims by providerID,
 * pods by node), plus what the caches cannot know yet — NodeClaims Tenon created that its watch has not
 * delivered, and pod nominations — so that no decision is taken on a partial view.
 */
import { Labels } from '../api/index.js';
import type { Clock } from '../clock/index.js';
import { isTerminal, type KubeObject, type Node, type Pod } from '../kube/index.js';
import { Indexes, type ClusterInformers, type StoredNodeClaim } from './informers.js';

/** Where a pod was nominated to go, and until when the nomination holds. */
export interface Nomination {
  /** `nodeclaim/<name>` or `node/<name>`. */
  target: string;
  until: number;
}

/** `namespace/name` of a pod, as the scheduling engine keys it and nominations are kept. */
export function podKey(pod: Pod): string {
  return [pod.metadata.namespace ?? 'default', pod.metadata.name].join('/');
}

/** The joined view over the shared informers. */
export class ClusterState {
  private readonly expected = new Set<string>();
  /** When `synced()` first answered false since it last answered true. */
  private unsyncedSince: number | undefined;
  private readonly nominations = new Map<string, Nomination>();

  /** Wraps the shared informers. */
  constructor(
    readonly informers: ClusterInformers,
    private readonly clock: Clock,
    /** Informers of kinds the cluster does not serve: never started, so never waited for. */
    private readonly unserved: ReadonlySet<keyof ClusterInformers> = new Set(),
  ) {
    // Seen once is enough: a NodeClaim can be created and deleted (e.g. insufficient capacity) between two checks.
    const seen = (nc: StoredNodeClaim): void => {
      this.expected.delete(nc.metadata.name ?? '');
    };
    informers.nodeClaims.on({ add: seen, update: (_o, nc) => seen(nc), delete: seen });
    // A bound or deleted pod's nomination is never read again: dropped now rather than kept past its expiry.
    informers.pods.on({
      // On binding only: every later status write of a running pod comes through here too.
      update: (o, p) => {
        if (p.spec.nodeName && !o.spec.nodeName) this.nominations.delete(podKey(p));
      },
      delete: (p) => this.nominations.delete(podKey(p)),
    });
  }

  /** True once every informer listed and every NodeClaim Tenon created is in the cache. */
  synced(): boolean {
    const synced = this.checkSynced();
    if (synced) this.unsyncedSince = undefined;
    else this.unsyncedSince ??= this.clock.now();
    return synced;
  }

  /** Seconds since `synced()` started answering false, 0 while it answers true (Karpenter's unsynced time). */
  unsyncedSeconds(): number {
    return this.unsyncedSince === undefined ? 0 : (this.clock.now() - this.unsyncedSince) / 1000;
  }

  private checkSynced(): boolean {
    for (const [name, inf] of Object.entries(this.informers) as Array<
      [keyof ClusterInformers, { hasSynced(): boolean }]
    >)
      if (!this.unserved.has(name) && !inf.hasSynced()) return false;
    for (const name of this.expected) {
      if (!this.informers.nodeClaims.cache.get(name)) return false;
      this.expected.delete(name);
    }
    return true;
  }

  /** Records a NodeClaim just created, so `synced` waits until the watch delivers it. */
  expectNodeClaim(name: string): void {
    this.expected.add(name);
  }

  /** Records that `podKey` should land on `target` for `ttlMs`. */
  nominate(podKey: string, target: string, ttlMs: number): void {
    const until = this.clock.now() + ttlMs;
    // Renewed in place: every pass renews the nomination of every pending pod (150,000 in a large scale-up).
    const known = this.nominations.get(podKey);
    if (known) {
      // An equal target keeps the string it has (renewals come with a new copy each pass).
      if (known.target !== target) known.target = target;
      known.until = until;
    } else this.nominations.set(podKey, { target, until });
  }

  /** The live nomination of a pod, if any (expired ones are dropped). */
  nominationOf(podKey: string): Nomination | undefined {
    const n = this.nominations.get(podKey);
    if (n && n.until <= this.clock.now()) {
      this.nominations.delete(podKey);
      return undefined;
    }
    return n;
  }

  /** The Node a NodeClaim launched as, if it registered. */
  nodeOf(nc: StoredNodeClaim): Node | undefined {
    const id = nc.status?.providerID;
    return id ? this.informers.nodes.cache.byIndex(Indexes.providerID, id)[0] : undefined;
  }

  /** The NodeClaim behind a Node, if Tenon manages it. */
  nodeClaimOf(node: Node): StoredNodeClaim | undefined {
    const id = node.spec?.providerID;
    return id ? this.informers.nodeClaims.cache.byIndex(Indexes.providerID, id)[0] : undefined;
  }

  /** Pods bound to a node that still hold its capacity (not terminal). */
  podsOn(nodeName: string): Pod[] {
    return this.informers.pods.cache.byIndex(Indexes.nodeName, nodeName).filter((p) => !isTerminal(p));
  }

  /** The NodePool a node or NodeClaim belongs to, by its label. */
  static nodePoolOf(obj: KubeObject): string | undefined {
    return obj.metadata.labels?.[Labels.nodePool];
  }
}
