/**
 * The fault suite's runner: one case of fault-cases.ts on a fresh playground, the faults at their simulated times,
 * and the invariants of invariants.ts, checked continuously and at the end.
 */
import { Resources, type KubeObject, type Pod } from '../../src/kube/index.js';
import type { ControllerCall } from '../../src/sim/playground/controller-process.js';
import { startPlayground, type Playground } from '../../src/sim/playground/playground.js';
import { applyObjects, parseManifests, scaleObject } from '../../src/sim/scenario/apply.js';
import { injectFault } from '../../src/sim/scenario/faults.js';
import type { Scalable, StoredNodeClaim } from '../../src/state/informers.js';

/** A Deployment or ReplicaSet: its scale and what its controller reports. */
type Owner = Scalable & { status?: { replicas?: number; readyReplicas?: number } };
import {
  convergeWithinMs,
  deletingWithinMs,
  driftRelease,
  finalReplicas,
  heapBoundBytes,
  limitsOf,
  manifests,
  type Drift,
  type FaultCase,
  type Kill,
  type TimedFault,
} from './fault-cases.js';
import { InvariantWatcher, type Violation } from './invariants.js';
import { inPhase } from './kill-points.js';

export { faultCaseArb, type FaultCase } from './fault-cases.js';
export type { Violation } from './invariants.js';

const minute = 60_000;

/** Progress lines on stderr when TENON_FAULT_TRACE is set (a long case shows where it is). */
function trace(pg: Playground, t0: number, what: string): void {
  if (!process.env.TENON_FAULT_TRACE) return;
  const heap = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
  const sim = ((pg.clock.now() - t0) / minute).toFixed(1);
  process.stderr.write(`[fault] ${new Date().toISOString()} sim ${sim} min, heap ${heap} MiB: ${what}\n`);
}

/** The workload's own change: web scales down (not a fault; it gives consolidation work). */
interface ScaleDown {
  at: number;
  scaleTo: number;
}

/** Controller restarts in progress: they complete while simulated time moves on. */
class Restarts {
  private pending = 0;
  private readonly errors: unknown[] = [];

  start(pg: Playground): void {
    this.track(pg.restartControllers());
  }

  /** Where each kill landed (the call, or `at the deadline`): a case's trace says what it exercised. */
  readonly landed: string[] = [];

  /** Kills the controller process where `k` says, and starts a new one. */
  kill(pg: Playground, k: Kill): void {
    const at = { match: (c: ControllerCall) => inPhase(k.phase, c), skip: k.skip, delivered: k.delivered };
    this.track(
      pg.killControllers({ at, restartAfterMs: k.restartAfter }).then((c) => {
        this.landed.push(c ? `${k.phase}: ${c.api} ${c.verb} ${c.path}`.trim() : `${k.phase}: at the deadline`);
      }),
    );
  }

  private track(restart: Promise<unknown>): void {
    this.pending++;
    restart.then(
      () => this.pending--,
      (e: unknown) => this.errors.push(e),
    );
  }

  /** What went wrong: a restart that failed or never completed. */
  problems(): string[] {
    return [
      ...this.errors.map((e) => `controller restart failed: ${e instanceof Error ? e.message : String(e)}`),
      ...(this.pending > this.errors.length
        ? [`${this.pending - this.errors.length} controller restart(s) never completed`]
        : []),
    ];
  }
}

async function apply(pg: Playground, tf: TimedFault | ScaleDown, restarts: Restarts): Promise<void> {
  if ('scaleTo' in tf) {
    const ref = { kind: 'Deployment', name: 'web', namespace: 'default', replicas: tf.scaleTo };
    await scaleObject(pg.observer.client, pg.observer.discovery, ref);
  } else if ('restartControllers' in tf) restarts.start(pg);
  else if ('kill' in tf) restarts.kill(pg, tf.kill);
  else if ('drift' in tf) await drift(pg, tf.drift);
  else if ('clockJump' in tf) await pg.clock.jump(tf.clockJump);
  else await injectFault(pg, tf.fault);
}

/** A user's change that drifts every NodeClaim (through the observer: a user's write is not the fault). */
async function drift(pg: Playground, d: Drift): Promise<void> {
  const c = pg.observer.client;
  const change =
    d === 'ami'
      ? c.patch(
          Resources.ec2NodeClasses,
          { name: 'default' },
          { spec: { amiSelectorTerms: [{ alias: driftRelease }] } },
        )
      : c.patch(
          Resources.nodePools,
          { name: 'default' },
          { spec: { template: { metadata: { labels: { rollout: '2' } } } } },
        );
  await pg.clock.busy(change);
}

/** The objects the user created that are gone (nothing a user created may be lost). */
async function lostObjects(pg: Playground): Promise<string[]> {
  const c = pg.observer.client;
  const wanted: Array<[Parameters<typeof c.get>[0], string, string?]> = [
    [Resources.nodePools, 'default'],
    [Resources.ec2NodeClasses, 'default'],
    [Resources.deployments, 'web', 'default'],
    [Resources.deployments, 'pinned', 'default'],
    [Resources.podDisruptionBudgets, 'web', 'default'],
  ];
  const lost: string[] = [];
  for (const [rt, name, namespace] of wanted)
    await pg.clock.busy(c.get<KubeObject>(rt, { name, namespace })).catch(() => lost.push(`${rt.kind} ${name}`));
  return lost;
}

async function pass(pg: Playground, w: InvariantWatcher, ms: number): Promise<void> {
  const end = pg.clock.now() + ms;
  while (pg.clock.now() < end) {
    await pg.clock.advance(Math.min(5_000, end - pg.clock.now()));
    w.look();
  }
}

async function allRunning(pg: Playground, c: FaultCase): Promise<boolean> {
  const pods = (await pg.observer.client.list<Pod>(Resources.pods, { namespace: 'default' })).items.filter(
    (p) => !p.metadata.deletionTimestamp,
  );
  return pods.length === finalReplicas(c) + 1 && pods.every((p) => p.status?.phase === 'Running');
}

/** The pods that are not Running and every NodeClaim, in a line each: what a failing case's report needs. */
async function stateOf(pg: Playground): Promise<string> {
  const pods = (await pg.observer.client.list<Pod>(Resources.pods, { namespace: 'default' })).items;
  const claims = (await pg.observer.client.list<StoredNodeClaim>(Resources.nodeClaims)).items;
  const notRunning = pods
    .filter((p) => p.status?.phase !== 'Running' || p.metadata.deletionTimestamp)
    .map((p) => {
      const scheduled = p.status?.conditions?.find((x) => x.type === 'PodScheduled');
      const deleting = p.metadata.deletionTimestamp ? ' deleting' : '';
      return `  pod ${p.metadata.name} ${p.status?.phase}${deleting} on ${p.spec?.nodeName ?? '-'}: ${scheduled?.reason ?? ''} ${scheduled?.message ?? ''}`;
    });
  const nodeClaims = claims.map((nc) => {
    const conds = (nc.status?.conditions ?? []).map((x) => `${x.type}=${x.status}${x.reason ? `(${x.reason})` : ''}`);
    const deleting = nc.metadata.deletionTimestamp ? ` deleting since ${nc.metadata.deletionTimestamp}` : '';
    return `  nodeclaim ${nc.metadata.name} ${nc.status?.nodeName ?? '-'}${deleting}: ${conds.join(' ')}`;
  });
  const owners = async (rt: typeof Resources.deployments): Promise<string[]> =>
    (await pg.observer.client.list<Owner>(rt, { namespace: 'default' })).items.map(
      (o) =>
        `  ${rt.kind.toLowerCase()} ${o.metadata.name}: spec ${o.spec?.replicas ?? '-'}, status ${o.status?.replicas ?? '-'} (${o.status?.readyReplicas ?? 0} ready)`,
    );
  const live = pods.filter((p) => !p.metadata.deletionTimestamp).length;
  return [
    `  ${live} live pods`,
    ...(await owners(Resources.deployments)),
    ...(await owners(Resources.replicaSets)),
    ...notRunning,
    ...nodeClaims,
  ].join('\n');
}

/** Running instances no NodeClaim knows, after the garbage-collection period. */
async function leakedInstances(pg: Playground): Promise<string[]> {
  const claims = (await pg.observer.client.list<StoredNodeClaim>(Resources.nodeClaims)).items;
  const known = new Set(claims.map((c) => c.status?.providerID?.split('/').pop()));
  return pg.ec2
    .listInstances({ states: ['pending', 'running'] })
    .filter((i) => !known.has(i.instanceId))
    .map((i) => i.instanceId);
}

/** What a case broke, and what it exercised. */
export interface CaseResult {
  violations: Violation[];
  seen: InvariantWatcher['seen'];
  /** Where each kill of the controller process landed. */
  kills: string[];
}

/** Runs one case; returns every invariant it broke. */
export async function runFaultCase(c: FaultCase): Promise<CaseResult> {
  const pg = await startPlayground({ seed: c.seed, defaults: true });
  const t0 = pg.clock.now();
  const w = new InvariantWatcher(pg, t0, limitsOf(c));
  const late = (what: string): void => {
    w.violations.push({ atMinute: (pg.clock.now() - t0) / minute, what });
  };
  const restarts = new Restarts();
  try {
    await w.start();
    await pg.clock.busy(applyObjects(pg.observer.client, pg.observer.discovery, parseManifests(manifests(c))));
    trace(pg, t0, `case ${JSON.stringify(c)}`);
    const events = [...c.faults, { at: c.scaleDown.at, scaleTo: c.scaleDown.to }].sort((a, b) => a.at - b.at);
    for (const tf of events) {
      await pass(pg, w, Math.max(0, t0 + tf.at - pg.clock.now()));
      trace(pg, t0, `fault ${JSON.stringify(tf)}`);
      await apply(pg, tf, restarts);
      w.look();
    }
    // Nodes of a short expireAfter expire before the cluster is judged: their replacement is part of converging.
    if (c.expireAfterMinutes !== undefined)
      await pass(pg, w, Math.max(0, t0 + (c.expireAfterMinutes + 1) * minute - pg.clock.now()));
    // Faults with a window heal by themselves within 2 minutes; then the cluster must converge.
    const lastFault = pg.clock.now();
    const settled = async (): Promise<boolean> =>
      (await pg.clock.busy(allRunning(pg, c))) && w.driftedLeft().length === 0;
    while (!(await settled()) && pg.clock.now() - lastFault < 2 * minute + convergeWithinMs) {
      trace(pg, t0, 'waiting for every pod to run and every drifted NodeClaim to be replaced');
      await pass(pg, w, 30_000);
    }
    if (!(await pg.clock.busy(allRunning(pg, c))))
      late(
        `pods not all Running ${convergeWithinMs / minute} min after the faults healed:\n${await pg.clock.busy(stateOf(pg))}`,
      );
    const drifted = w.driftedLeft();
    if (drifted.length > 0)
      late(`drifted NodeClaims not replaced ${convergeWithinMs / minute} min after the faults: ${drifted.join(', ')}`);
    // Consolidation acts on the scaled-down fleet; past the garbage collector's period, no instance runs without a
    // NodeClaim, and no deletion hangs.
    await pass(pg, w, 6 * minute);
    const leaked = await pg.clock.busy(leakedInstances(pg));
    if (leaked.length > 0) late(`leaked instances: ${leaked.join(', ')}`);
    const stuck = w.stuckDeleting(deletingWithinMs);
    if (stuck.length > 0) late(`NodeClaims deleting for over ${deletingWithinMs / minute} min: ${stuck.join(', ')}`);
    for (const p of restarts.problems()) late(p);
    const lost = await lostObjects(pg);
    if (lost.length > 0) late(`objects the user created are gone: ${lost.join(', ')}`);
    (globalThis as { gc?: () => void }).gc?.();
    const heap = process.memoryUsage().heapUsed;
    if (heap > heapBoundBytes) late(`heap ${heap} bytes over the bound`);
    trace(
      pg,
      t0,
      `done, ${w.violations.length} violation(s), seen ${JSON.stringify(w.seen)}, kills ${JSON.stringify(restarts.landed)}`,
    );
    return { violations: w.violations, seen: w.seen, kills: restarts.landed };
  } finally {
    w.stop();
    await pg.stop();
  }
}
