/**
 * A fast removal simulator for the common case where only resources decide: pods without node selectors,
 * affinities, topology spread, host ports or volumes, receiving nodes without taints, one NodePool without
 * taints. Pods are packed first-fit decreasing onto the free capacity of the remaining initialized nodes, and
 * what is left into one new NodeClaim of the cheapest type that holds it (plus every DaemonSet's requests, a
 * conservative overhead). Anything it cannot judge goes to the full solver. Its "yes" is a proposal: decide()
 * confirms the command it picked with the solver, the controller validates it with the solver again after the
 * consolidation TTL (validation.ts), and the property tests carry commands out with the solver.
 */
import { Labels } from '../../../api/index.js';
import {
  addResources,
  cheapestOffering,
  fitsIn,
  podRequests,
  preparedInstanceType,
  Requirement,
  Requirements,
  SolveCache,
  subtractResources,
  toResourceList,
  fromResourceList,
  type Resources,
} from '../../../scheduling/index.js';
import type * as sched from '../../../scheduling/index.js';
import { podKeyOf } from '../candidates/pods.js';
import type { Candidate, DisruptionView } from '../types.js';
import type { RemovalHints, RemovalOutcome, RemovalSimulator } from './removal-simulator.js';

interface Receiver {
  name: string;
  free: Resources;
}

interface PricedType {
  name: string;
  price: number;
  zone: string;
  capacityType: string;
  allocatable: Resources;
}

function simplePod(p: sched.Pod): boolean {
  const s = p.spec;
  const hostPorts = [...s.containers, ...(s.initContainers ?? [])].some((c) => c.ports?.some((x) => x.hostPort));
  return (
    !s.nodeSelector &&
    !s.affinity &&
    !s.topologySpreadConstraints?.length &&
    !s.volumes?.some((v) => v.persistentVolumeClaim || v.ephemeral) &&
    !hostPorts
  );
}

/** Resource-only removal simulation, falling back to `fallback` whenever constraints could matter. */
export class ResourceRemovalSimulator implements RemovalSimulator {
  private readonly receivers: Receiver[] = [];
  private launchableTypes: PricedType[] | undefined;
  private readonly overhead: Resources = {};
  private readonly pool: sched.NodePool | undefined;
  private readonly requests = new WeakMap<sched.Pod, Resources>();
  private readonly simplePods = new WeakMap<sched.Pod, boolean>();
  /** No pending pods and no node being deleted: the snapshot the resource-only packing can judge. */
  private settled: boolean | undefined;
  /** Simulations answered here and by the fallback. */
  fast = 0;
  slow = 0;

  /** Prepares free capacity and the NodePool's launchable types once per snapshot. */
  constructor(
    private readonly view: DisruptionView,
    private readonly fallback: RemovalSimulator,
    private readonly cache: SolveCache = new SolveCache(),
  ) {
    const pools = view.schedulingNodePools;
    this.pool = pools.length === 1 && !pools[0]?.template.taints?.length ? pools[0] : undefined;
    if (!this.pool) return;
    for (const n of view.nodes) {
      if (n.deleting || n.initialized === false || n.taints?.some((t) => t.effect !== 'PreferNoSchedule')) continue;
      let used: Resources = {};
      for (const p of n.pods ?? []) used = addResources(used, podRequests(p));
      this.receivers.push({ name: n.name, free: subtractResources(fromResourceList(n.allocatable), used) });
    }
    for (const ds of view.daemonSets)
      Object.assign(
        this.overhead,
        addResources(this.overhead, podRequests({ metadata: { name: ds.name }, spec: ds.template.spec })),
      );
  }

  /** The NodePool's launchable types, prepared on first use. */
  private types(pool: sched.NodePool): PricedType[] {
    this.launchableTypes ??= this.launchable(pool);
    return this.launchableTypes;
  }

  private launchable(pool: sched.NodePool): PricedType[] {
    const reqs = Requirements.fromSelector(pool.template.requirements);
    const out: PricedType[] = [];
    for (const it of this.view.instanceTypesByNodePool[pool.name] ?? []) {
      const info = preparedInstanceType(it, this.cache);
      if (!info || info.requirements.intersects(reqs)) continue;
      const o = cheapestOffering(info, reqs);
      if (o)
        out.push({
          name: it.name,
          price: o.price,
          zone: o.zone,
          capacityType: o.capacityType,
          allocatable: info.allocatable,
        });
    }
    return out.sort((a, b) => a.price - b.price || (a.name < b.name ? -1 : 1));
  }

  /** Full solves run by the fallback (see RemovalSimulator.solves): its own count, else every simulation handed to it. */
  get solves(): number {
    return this.fallback.solves ?? this.slow;
  }

  /** See RemovalSimulator. */
  simulate(candidates: readonly Candidate[], hints: RemovalHints = {}): RemovalOutcome {
    const moving = candidates.flatMap((c) => c.reschedulable);
    this.settled ??= this.view.pendingPods.length === 0 && !this.view.nodes.some((n) => n.deleting);
    const simple = this.pool && this.settled && moving.every((p) => this.simple(p));
    if (!simple || !this.pool) {
      this.slow++;
      return this.fallback.simulate(candidates, hints);
    }
    this.fast++;
    return this.pack(moving, new Set(candidates.map((c) => c.node.name)), this.pool);
  }

  /** simplePod, judged once per pod object: a pass simulates the same pods many times. */
  private simple(p: sched.Pod): boolean {
    let ok = this.simplePods.get(p);
    if (ok === undefined) {
      ok = simplePod(p);
      this.simplePods.set(p, ok);
    }
    return ok;
  }

  /** A pod's requests, parsed once per snapshot: a pass simulates the same pods many times. */
  private requestsOf(p: sched.Pod): Resources {
    let r = this.requests.get(p);
    if (!r) {
      r = podRequests(p);
      this.requests.set(p, r);
    }
    return r;
  }

  private pack(moving: sched.Pod[], gone: ReadonlySet<string>, pool: sched.NodePool): RemovalOutcome {
    const sized = moving
      .map((p) => ({ p, r: this.requestsOf(p) }))
      .sort((a, b) => (b.r['cpu'] ?? 0) - (a.r['cpu'] ?? 0) || (b.r['memory'] ?? 0) - (a.r['memory'] ?? 0));
    // A node without room for the element-wise smallest request takes none of these pods: leave it out of the
    // first-fit scans, which are most of a simulation's time once the fleet is well packed.
    const smallest = elementwiseMin(sized.map((s) => s.r));
    const free = this.receivers
      .filter((r) => !gone.has(r.name) && fitsIn(smallest, r.free))
      .map((r) => ({ ...r, free: { ...r.free } }));
    const leftover: Resources = { ...this.overhead };
    const onNew: string[] = [];
    for (const { p, r } of sized) {
      // In place: `free` and `leftover` are this simulation's own copies.
      const target = free.find((n) => fitsIn(r, n.free));
      if (target) {
        for (const k in r) target.free[k] = (target.free[k] ?? 0) - (r[k] ?? 0);
        continue;
      }
      for (const k in r) leftover[k] = (leftover[k] ?? 0) + (r[k] ?? 0);
      onNew.push(podKeyOf(p));
    }
    if (onNew.length === 0) return { stranded: [], newNodeClaims: [] };
    const fitting = this.types(pool).filter((t) => fitsIn(leftover, t.allocatable));
    const first = fitting[0];
    if (!first)
      return {
        stranded: [],
        newNodeClaims: [this.planned(pool, [], onNew, leftover), this.planned(pool, [], [], leftover)],
      };
    return { stranded: [], newNodeClaims: [this.planned(pool, fitting.slice(0, 60), onNew, leftover)] };
  }

  private planned(
    pool: sched.NodePool,
    options: PricedType[],
    pods: string[],
    requests: Resources,
  ): sched.NewNodeClaim {
    const reqs = Requirements.fromSelector(pool.template.requirements);
    reqs.add(Requirement.of(Labels.nodePool, 'In', [pool.name]));
    if (options.length)
      reqs.add(
        Requirement.of(
          Labels.instanceType,
          'In',
          options.map((o) => o.name),
        ),
      );
    const first = options[0];
    return {
      nodePool: pool.name,
      requirements: reqs.toSelectorRequirements(),
      instanceTypeOptions: options.map((o) => o.name),
      cheapest: {
        instanceType: first?.name ?? '',
        zone: first?.zone ?? '',
        capacityType: first?.capacityType ?? '',
        price: first?.price ?? Number.POSITIVE_INFINITY,
      },
      pods,
      requests: toResourceList(requests),
      taints: [],
      labels: { ...pool.template.labels, [Labels.nodePool]: pool.name },
    };
  }
}

/** The element-wise minimum of `rs` (a resource some of them do not request counts as 0). */
function elementwiseMin(rs: readonly Resources[]): Resources {
  const [first, ...rest] = rs;
  const out: Resources = { ...first };
  for (const r of rest) {
    for (const k in out) out[k] = Math.min(out[k] ?? 0, r[k] ?? 0);
  }
  return out;
}
