/**
 * The fault suite's invariants, checked from the outside as a user would: through the fault-exempt observer's
 * own informers (the faults do not touch its reads), on every change they deliver and after every slice of
 * simulated time.
 */
import { Annotations, DisruptedTaint } from '../../src/api/index.js';
import { Resources, SharedInformers, type KubeObject, type Node, type Pod } from '../../src/kube/index.js';
import type { Playground } from '../../src/sim/playground/playground.js';
import type { StoredNodeClaim } from '../../src/state/informers.js';

const minute = 60_000;

/** The fields of a core/v1 Event the watcher reads. */
interface CoreEvent extends KubeObject {
  reason?: string;
  involvedObject?: { kind?: string; uid?: string };
}

/** What broke, with the simulated minute it was seen at. */
export interface Violation {
  atMinute: number;
  what: string;
}

/** The limits of the case's objects the invariants hold Tenon to. */
export interface Limits {
  /** The NodePool's `limits.cpu`. */
  cpu: number;
  /** The NodePool's disruption budget (`nodes`, a count). */
  budgetNodes: number;
  /** Label selector (app=…) and minAvailable of the PodDisruptionBudget. */
  pdb: { app: string; minAvailable: number };
  /** The app label of pods annotated karpenter.sh/do-not-disrupt. */
  doNotDisruptApp: string;
  /** Karpenter's registration timeout: a NodeClaim launched longer ago must have registered or be gone. */
  registrationTimeoutMs: number;
  /** The NodePool's expireAfter, when short: a NodeClaim older than that (and a little) must be deleting or gone. */
  expireAfterMs?: number;
}

function cpuOf(q: string | number | undefined): number {
  if (q === undefined) return 0;
  const s = String(q);
  return s.endsWith('m') ? Number(s.slice(0, -1)) / 1000 : Number(s);
}

function podReady(p: Pod): boolean {
  return (
    !p.metadata.deletionTimestamp && (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
  );
}

function nodeReady(n: Node): boolean {
  return (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function disrupted(n: Node): boolean {
  return (n.spec?.taints ?? []).some((t) => t.key === DisruptedTaint.key && t.effect === DisruptedTaint.effect);
}

function condition(nc: StoredNodeClaim, type: string): { status: string; lastTransitionTime?: string } | undefined {
  return (nc.status?.conditions ?? []).find((c) => c.type === type);
}

/** Watches the cluster while a case runs and collects every invariant it sees broken. */
export class InvariantWatcher {
  readonly violations: Violation[] = [];
  /** How often each checked situation arose (a case that never evicts proves nothing about PDBs). */
  readonly seen = { evictions: 0, pdbEvictions: 0, marks: 0, drifted: 0, expired: 0 };
  private readonly drifted = new Set<string>();
  private readonly expired = new Set<string>();
  private readonly informers: SharedInformers;
  private readonly untainted = new Set<string>();
  private readonly flagged = new Set<string>();
  /** Pods that started terminating on a node Tenon disrupts, by UID, until Tenon's Evicted event (or never). */
  private readonly terminating = new Map<
    string,
    { name: string; node: string; doNotDisrupt: boolean; pdb: number | undefined }
  >();
  /** Nodes Tenon marked for voluntary disruption (tainted before any deletion), by name. */
  private readonly voluntary = new Set<string>();

  constructor(
    private readonly pg: Playground,
    private readonly t0: number,
    private readonly limits: Limits,
  ) {
    this.informers = new SharedInformers({
      client: pg.observer.client,
      clock: pg.clock,
      onError: () => undefined,
    });
    this.informers.get<Pod>(Resources.pods).on({ update: (old, pod) => this.podChanged(old, pod) });
    this.informers.get<Node>(Resources.nodes).on({
      add: (n) => this.nodeChanged(undefined, n),
      update: (old, n) => this.nodeChanged(old, n),
      delete: (n) => this.voluntary.delete(n.metadata.name ?? ''),
    });
    this.informers.get<StoredNodeClaim>(Resources.nodeClaims);
    this.informers.get<CoreEvent>(Resources.events).on({ add: (e) => this.evicted(e) });
  }

  /** Starts the observer's informers and waits for their first lists. */
  async start(): Promise<void> {
    const all = [
      this.informers.get<Pod>(Resources.pods),
      this.informers.get<Node>(Resources.nodes),
      this.informers.get<StoredNodeClaim>(Resources.nodeClaims),
      this.informers.get<CoreEvent>(Resources.events),
    ];
    for (const inf of all) inf.start();
    await this.pg.clock.busy(Promise.all(all.map((inf) => inf.waitForSync())));
  }

  /** Stops the observer's informers. */
  stop(): void {
    this.informers.stop();
  }

  private at(): number {
    return (this.pg.clock.now() - this.t0) / minute;
  }

  /** Records a violation once per `key` (a state that lasts is seen by every later check too). */
  private flag(what: string, key = what): void {
    if (this.flagged.has(key)) return;
    this.flagged.add(key);
    this.violations.push({ atMinute: this.at(), what });
  }

  private nodeOf(pod: Pod): Node | undefined {
    const name = pod.spec?.nodeName;
    return name ? this.informers.get<Node>(Resources.nodes).cache.get(name) : undefined;
  }

  /**
   * A pod starts terminating on a live node carrying Tenon's disrupted taint: what PDB and do-not-disrupt would
   * say if Tenon evicted it, kept until Tenon's Evicted event tells that it did (a ReplicaSet scaling down deletes
   * pods too, and involuntary losses are no eviction at all).
   */
  private podChanged(old: Pod, pod: Pod): void {
    if (old.metadata.deletionTimestamp || !pod.metadata.deletionTimestamp) return;
    const node = this.nodeOf(pod);
    if (!node || !nodeReady(node) || !disrupted(node)) return;
    const app = pod.metadata.labels?.app;
    const healthy = this.informers
      .get<Pod>(Resources.pods)
      .cache.list()
      .filter((p) => p.metadata.labels?.app === app && podReady(p)).length;
    this.terminating.set(pod.metadata.uid ?? '', {
      name: `${pod.metadata.namespace}/${pod.metadata.name}`,
      node: node.metadata.name ?? '',
      doNotDisrupt:
        app === this.limits.doNotDisruptApp || pod.metadata.annotations?.[Annotations.doNotDisrupt] === 'true',
      pdb: app === this.limits.pdb.app && podReady(old) ? healthy : undefined,
    });
  }

  /** Tenon says it evicted a pod: judge the moment the pod started terminating. */
  private evicted(e: CoreEvent): void {
    if (e.reason !== 'Evicted' || e.involvedObject?.kind !== 'Pod') return;
    const uid = e.involvedObject.uid ?? '';
    const t = this.terminating.get(uid);
    if (!t) return;
    this.terminating.delete(uid);
    this.seen.evictions++;
    if (t.doNotDisrupt) this.flag(`do-not-disrupt pod ${t.name} evicted from ${t.node}`);
    if (t.pdb === undefined) return;
    this.seen.pdbEvictions++;
    if (t.pdb < this.limits.pdb.minAvailable)
      this.flag(
        `PDB broken: ${t.name} evicted leaving ${t.pdb} healthy < minAvailable ${this.limits.pdb.minAvailable}`,
      );
  }

  private nodeChanged(old: Node | undefined, node: Node): void {
    const name = node.metadata.name ?? '';
    if (!disrupted(node)) {
      this.voluntary.delete(name);
      return;
    }
    // The disruption controller taints a node before deleting it; termination taints a node already deleting.
    if ((!old || !disrupted(old)) && !node.metadata.deletionTimestamp) {
      this.voluntary.add(name);
      this.seen.marks++;
      if (this.voluntary.size > this.limits.budgetNodes)
        this.flag(
          `disruption budget broken: ${this.voluntary.size} nodes disrupted at once (${[...this.voluntary].join(', ')}), budget ${this.limits.budgetNodes}`,
        );
    }
  }

  /** Checks made after every slice: NodePool limit, no resurrected uninitialized taint (S1), no stuck registration. */
  look(): void {
    const claims = this.informers.get<StoredNodeClaim>(Resources.nodeClaims).cache.list();
    const launchedCpu = claims.reduce(
      (s, nc) => s + cpuOf(nc.status?.capacity?.cpu ?? nc.spec.resources?.requests?.cpu),
      0,
    );
    if (launchedCpu > this.limits.cpu)
      this.flag(`NodePool limit cpu ${this.limits.cpu} exceeded: ${launchedCpu}`, `limit ${launchedCpu}`);
    for (const n of this.informers.get<Node>(Resources.nodes).cache.list()) {
      const name = n.metadata.name ?? '';
      const tainted = (n.spec?.taints ?? []).some((t) => t.key === 'node.cloudprovider.kubernetes.io/uninitialized');
      if (!tainted) this.untainted.add(name);
      else if (this.untainted.has(name)) this.flag(`uninitialized taint put back on ${name} (S1)`);
    }
    // A minute of slack past the timeout: the liveness check runs on its own period.
    const now = this.pg.clock.now();
    this.expiry(claims, now);
    for (const nc of claims) {
      const launched = condition(nc, 'Launched');
      if (nc.metadata.deletionTimestamp || condition(nc, 'Registered')?.status === 'True') continue;
      // Karpenter's launch timeout is shorter than the registration timeout: a NodeClaim that never launches goes too.
      const age = now - Date.parse(nc.metadata.creationTimestamp ?? '');
      if (launched?.status !== 'True') {
        if (age > this.limits.registrationTimeoutMs + minute)
          this.flag(
            `NodeClaim ${nc.metadata.name} created ${(age / minute).toFixed(1)} min ago, never launched, not deleted`,
            `unlaunched ${nc.metadata.name}`,
          );
        continue;
      }
      const since = Date.parse(launched.lastTransitionTime ?? '');
      if (now - since > this.limits.registrationTimeoutMs + minute)
        this.flag(
          `NodeClaim ${nc.metadata.name} launched ${((now - since) / minute).toFixed(1)} min ago, never registered, not deleted`,
          `unregistered ${nc.metadata.name}`,
        );
    }
  }

  /** Counts drifted and expired NodeClaims; flags one that outlived expireAfter by more than 3 minutes. */
  private expiry(claims: StoredNodeClaim[], now: number): void {
    for (const nc of claims) {
      const name = nc.metadata.name ?? '';
      if (condition(nc, 'Drifted')?.status === 'True' && !this.drifted.has(name)) {
        this.drifted.add(name);
        this.seen.drifted++;
      }
      const limit = this.limits.expireAfterMs;
      if (limit === undefined) continue;
      const age = now - Date.parse(nc.metadata.creationTimestamp ?? '');
      if (nc.metadata.deletionTimestamp) {
        if (age >= limit && !this.expired.has(name)) {
          this.expired.add(name);
          this.seen.expired++;
        }
      } else if (age > limit + 3 * minute)
        this.flag(
          `NodeClaim ${name} is ${(age / minute).toFixed(1)} min old, past expireAfter ${limit / minute} min, not deleted`,
          `expired ${name}`,
        );
    }
  }

  /**
   * Drifted NodeClaims not yet replaced, but those whose node runs a do-not-disrupt pod (drift is voluntary: such a
   * node waits for the pod to go).
   */
  driftedLeft(): string[] {
    const pods = this.informers.get<Pod>(Resources.pods).cache.list();
    const pinned = new Set(
      pods
        .filter(
          (p) =>
            p.metadata.labels?.app === this.limits.doNotDisruptApp ||
            p.metadata.annotations?.[Annotations.doNotDisrupt] === 'true',
        )
        .map((p) => p.spec?.nodeName),
    );
    return this.informers
      .get<StoredNodeClaim>(Resources.nodeClaims)
      .cache.list()
      .filter(
        (nc) =>
          condition(nc, 'Drifted')?.status === 'True' &&
          !nc.metadata.deletionTimestamp &&
          !pinned.has(nc.status?.nodeName),
      )
      .map((nc) => nc.metadata.name ?? '');
  }

  /** NodeClaims deleting for longer than `ms` (nothing holds a drain in the suite's cases once the faults healed). */
  stuckDeleting(ms: number): string[] {
    const now = this.pg.clock.now();
    return this.informers
      .get<StoredNodeClaim>(Resources.nodeClaims)
      .cache.list()
      .filter((nc) => nc.metadata.deletionTimestamp && now - Date.parse(nc.metadata.deletionTimestamp) > ms)
      .map((nc) => nc.metadata.name ?? '');
  }
}
