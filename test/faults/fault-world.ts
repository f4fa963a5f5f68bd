/**
 * The fault suite's world: a random workload on the playground (a Deployment under a PodDisruptionBudget and a
 * pod annotated do-not-disrupt, a NodePool with a cpu limit and a disruption budget), random faults at random
 * simulated times, and the invariants of invariants.ts, checked continuously and at the end.
 */
import fc from 'fast-check';
import { Resources, type Pod } from '../../src/kube/index.js';
import { defaultOptions } from '../../src/settings/options.js';
import { startPlayground, type Playground } from '../../src/sim/playground/playground.js';
import { applyObjects, parseManifests, scaleObject } from '../../src/sim/scenario/apply.js';
import { injectFault } from '../../src/sim/scenario/faults.js';
import type { Fault } from '../../src/sim/scenario/format.js';
import type { StoredNodeClaim } from '../../src/state/informers.js';
import { InvariantWatcher, type Limits, type Violation } from './invariants.js';

export type { Violation } from './invariants.js';

/** A fault at a simulated time (ms after the workload is applied), a controller restart, or a clock jump. */
export type TimedFault =
  { at: number; fault: Fault } | { at: number; restartControllers: true } | { at: number; clockJump: number };

/** One random case: the world's seed, the workload and the faults. */
export interface FaultCase {
  seed: number;
  replicas: number;
  cpuMillis: number;
  spot: boolean;
  /** The NodePool's disruption budget (nodes). */
  budget: number;
  /** When (ms after the workload is applied) web scales down to `to` replicas: consolidation then has work. */
  scaleDown: { at: number; to: number };
  faults: TimedFault[];
}

const minute = 60_000;
/** The NodePool's cpu limit the invariant holds launches to. */
export const cpuLimit = 40;
/** After the last fault, every pod must be Running within this much simulated time. */
export const convergeWithinMs = 20 * minute;
/** Once every pod runs, no NodeClaim may still be deleting after this long (no drain is held in the suite). */
export const deletingWithinMs = 10 * minute;
/** Bounded memory: the heap after a case stays under this (a leak of the 4 GB kind shows at once). */
export const heapBoundBytes = 1.5 * 1024 ** 3;

const window = fc.constantFrom('10s', '30s', '2m');
const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  fc.record({
    apiErrors: fc.record(
      { rate: fc.constantFrom(0.2, 0.5, 1), code: fc.constantFrom(409, 429, 500, 503, 504), for: window },
      { requiredKeys: ['rate', 'code', 'for'] },
    ),
  }),
  fc.record({
    apiErrors: fc.record({
      rate: fc.constantFrom(0.5, 1),
      verb: fc.constantFrom('create', 'patch', 'update', 'delete', 'list', 'watch'),
      resource: fc.constantFrom('nodeclaims', 'nodes', 'pods', 'pods/eviction', 'nodes/status', 'nodeclaims/status'),
      code: fc.constantFrom(409, 429, 500, 504),
      for: window,
    }),
  }),
  fc.constant<Fault>({ watchDrop: true }),
  fc.record({ watchDrop: fc.record({ lifetime: fc.constantFrom('5s', '30s'), for: window }) }),
  fc.record({
    ec2Throttling: fc.record({
      action: fc.constantFrom('CreateFleet', 'TerminateInstances', 'DescribeInstances'),
      calls: fc.integer({ min: 1, max: 30 }),
    }),
  }),
  fc.record({
    insufficientCapacity: fc.record(
      {
        zone: fc.constantFrom('us-west-2a', 'us-west-2b'),
        capacityType: fc.constantFrom('spot', 'on-demand'),
        for: window,
      },
      { requiredKeys: ['for'] },
    ),
  }),
  fc.record({ insufficientCapacity: fc.record({ for: window }) }),
  fc.record({
    instanceLoss: fc.record(
      { count: fc.integer({ min: 1, max: 3 }), capacityType: fc.constantFrom('spot', 'on-demand') },
      { requiredKeys: ['count'] },
    ),
  }),
  fc.record({ kubeletStop: fc.record({ count: fc.integer({ min: 1, max: 2 }), for: fc.constantFrom('30s', '2m') }) }),
  fc.record({
    spotInterruption: fc.record(
      { count: fc.integer({ min: 1, max: 2 }), warning: fc.constantFrom('30s', '2m') },
      { requiredKeys: ['count'] },
    ),
  }),
);
const at = fc.integer({ min: 0, max: 4 * minute });
const timedArb: fc.Arbitrary<TimedFault> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ at, fault: faultArb }) },
  { weight: 1, arbitrary: fc.record({ at, restartControllers: fc.constant(true as const) }) },
  { weight: 1, arbitrary: fc.record({ at, clockJump: fc.constantFrom(5 * minute, 20 * minute) }) },
);

/** Random cases. */
export const faultCaseArb: fc.Arbitrary<FaultCase> = fc
  .record({
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    replicas: fc.integer({ min: 4, max: 12 }),
    cpuMillis: fc.constantFrom(250, 500, 1000, 1500),
    spot: fc.boolean(),
    budget: fc.integer({ min: 1, max: 2 }),
    scaleDownAt: at,
    faults: fc.array(timedArb, { minLength: 1, maxLength: 4 }).map((fs) => [...fs].sort((a, b) => a.at - b.at)),
  })
  .map(({ scaleDownAt, ...c }) => ({
    ...c,
    scaleDown: { at: scaleDownAt, to: Math.max(2, Math.floor(c.replicas / 2)) },
  }));

/** The replicas of web once it scaled down. */
function finalReplicas(c: FaultCase): number {
  return c.scaleDown.to;
}

function limitsOf(c: FaultCase): Limits {
  return {
    cpu: cpuLimit,
    budgetNodes: c.budget,
    pdb: { app: 'web', minAvailable: finalReplicas(c) - 1 },
    doNotDisruptApp: 'pinned',
    registrationTimeoutMs: defaultOptions.registrationTimeout,
  };
}

function manifests(c: FaultCase): string {
  const capacity = c.spot ? '[spot, on-demand]' : '[on-demand]';
  return `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: ${capacity}}
        - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}
        - {key: karpenter.k8s.aws/instance-generation, operator: Gt, values: ["4"]}
        - {key: karpenter.k8s.aws/instance-cpu, operator: In, values: ["2", "4"]}
  limits: {cpu: "${cpuLimit}"}
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 1m
    budgets: [{nodes: "${c.budget}"}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: ${c.replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: app, resources: {requests: {cpu: ${c.cpuMillis}m, memory: 512Mi}}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec:
  minAvailable: ${finalReplicas(c) - 1}
  selector: {matchLabels: {app: web}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: pinned, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: pinned}}
  template:
    metadata:
      labels: {app: pinned}
      annotations: {karpenter.sh/do-not-disrupt: "true"}
    spec:
      containers: [{name: app, image: app, resources: {requests: {cpu: 250m, memory: 256Mi}}}]
`;
}

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
    this.pending++;
    pg.restartControllers().then(
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
  else if ('clockJump' in tf) await pg.clock.jump(tf.clockJump);
  else await injectFault(pg, tf.fault);
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
  return [...notRunning, ...nodeClaims].join('\n');
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

/** Runs one case; returns every invariant it broke. */
export async function runFaultCase(c: FaultCase): Promise<Violation[]> {
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
    // Faults with a window heal by themselves within 2 minutes; then the cluster must converge.
    const lastFault = pg.clock.now();
    while (!(await pg.clock.busy(allRunning(pg, c))) && pg.clock.now() - lastFault < 2 * minute + convergeWithinMs) {
      trace(pg, t0, 'waiting for every pod to run');
      await pass(pg, w, 30_000);
    }
    if (!(await pg.clock.busy(allRunning(pg, c))))
      late(
        `pods not all Running ${convergeWithinMs / minute} min after the faults healed:\n${await pg.clock.busy(stateOf(pg))}`,
      );
    // Consolidation acts on the scaled-down fleet; past the garbage collector's period, no instance runs without a
    // NodeClaim, and no deletion hangs.
    await pass(pg, w, 6 * minute);
    const leaked = await pg.clock.busy(leakedInstances(pg));
    if (leaked.length > 0) late(`leaked instances: ${leaked.join(', ')}`);
    const stuck = w.stuckDeleting(deletingWithinMs);
    if (stuck.length > 0) late(`NodeClaims deleting for over ${deletingWithinMs / minute} min: ${stuck.join(', ')}`);
    for (const p of restarts.problems()) late(p);
    const heap = process.memoryUsage().heapUsed;
    if (heap > heapBoundBytes) late(`heap ${heap} bytes over the bound`);
    trace(pg, t0, `done, ${w.violations.length} violation(s), seen ${JSON.stringify(w.seen)}`);
    return w.violations;
  } finally {
    w.stop();
    await pg.stop();
  }
}
