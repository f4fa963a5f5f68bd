/**
 * The fault suite's random cases: the workload (a Deployment under a PodDisruptionBudget and a pod annotated
 * do-not-disrupt, a NodePool with a cpu limit, a disruption budget and sometimes a short expireAfter) and the
 * faults at random simulated times: API errors, dropped watches, EC2 throttling, no capacity, lost instances, spot
 * interruptions, stopped kubelets, the controller process restarted or killed (SIGKILL at a call of a launch, a
 * registration, a drain or a deletion), clock jumps, and drift (an EC2NodeClass AMI or NodePool template change).
 */
import fc from 'fast-check';
import { defaultOptions } from '../../src/settings/options.js';
import type { Fault } from '../../src/sim/scenario/format.js';
import type { Limits } from './invariants.js';
import { killPhases, type KillPhase } from './kill-points.js';

/** How the controller process is killed (as SIGKILL) and restarted. */
export interface Kill {
  /** The kill lands on a call of this phase, `skip` calls of it in (or at any call, or 3 min later if none comes). */
  phase: KillPhase;
  skip: number;
  /** Whether the call the kill lands on reaches the server or EC2. */
  delivered: boolean;
  /** Simulated ms until the new process starts. */
  restartAfter: number;
}

/**
 * A fault at a simulated time (ms after the workload is applied), a graceful controller restart, the controller
 * process killed, or a clock jump.
 */
export type TimedFault =
  | { at: number; fault: Fault }
  | { at: number; restartControllers: true }
  | { at: number; kill: Kill }
  | { at: number; clockJump: number }
  | { at: number; drift: Drift };

/** What a user changes that drifts every NodeClaim: the EC2NodeClass's AMI, or the NodePool's template. */
export type Drift = 'ami' | 'nodePoolTemplate';

/** One random case: the world's seed, the workload and the faults. */
export interface FaultCase {
  seed: number;
  replicas: number;
  cpuMillis: number;
  spot: boolean;
  /** The NodePool's disruption budget (nodes). */
  budget: number;
  /** The NodePool's expireAfter in minutes (with a terminationGracePeriod of 5 minutes); undefined: 720h. */
  expireAfterMinutes?: number;
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
/** The AMI release a drift pins (the latest is v20250501). */
export const driftRelease = 'al2023@v20250401';
const timedArb: fc.Arbitrary<TimedFault> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ at, fault: faultArb }) },
  { weight: 1, arbitrary: fc.record({ at, restartControllers: fc.constant(true as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      at,
      kill: fc.record({
        phase: fc.constantFrom(...killPhases),
        skip: fc.integer({ min: 0, max: 3 }),
        delivered: fc.boolean(),
        restartAfter: fc.constantFrom(1_000, 10_000, 60_000),
      }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ at, clockJump: fc.constantFrom(5 * minute, 20 * minute) }) },
  { weight: 1, arbitrary: fc.record({ at, drift: fc.constantFrom<Drift>('ami', 'nodePoolTemplate') }) },
);

/** Random cases. */
export const faultCaseArb: fc.Arbitrary<FaultCase> = fc
  .record({
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    replicas: fc.integer({ min: 4, max: 12 }),
    cpuMillis: fc.constantFrom(250, 500, 1000, 1500),
    spot: fc.boolean(),
    budget: fc.integer({ min: 1, max: 2 }),
    expireAfterMinutes: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom(5, 8) },
    ),
    scaleDownAt: at,
    faults: fc.array(timedArb, { minLength: 1, maxLength: 4 }).map((fs) => [...fs].sort((a, b) => a.at - b.at)),
  })
  .map(({ scaleDownAt, ...c }) => ({
    ...c,
    scaleDown: { at: scaleDownAt, to: Math.max(2, Math.floor(c.replicas / 2)) },
  }));

/** The replicas of web once it scaled down. */
export function finalReplicas(c: FaultCase): number {
  return c.scaleDown.to;
}

/** What the invariants hold the case to. */
export function limitsOf(c: FaultCase): Limits {
  return {
    cpu: cpuLimit,
    budgetNodes: c.budget,
    pdb: { app: 'web', minAvailable: finalReplicas(c) - 1 },
    doNotDisruptApp: 'pinned',
    registrationTimeoutMs: defaultOptions.registrationTimeout,
    ...(c.expireAfterMinutes === undefined ? {} : { expireAfterMs: c.expireAfterMinutes * minute }),
  };
}

/** The case's NodePool, Deployments and PodDisruptionBudget. */
export function manifests(c: FaultCase): string {
  const capacity = c.spot ? '[spot, on-demand]' : '[on-demand]';
  // An expiring node with the do-not-disrupt pod on it is held until its terminationGracePeriod (Karpenter v1).
  const expiry =
    c.expireAfterMinutes === undefined
      ? ''
      : `      expireAfter: ${c.expireAfterMinutes}m\n      terminationGracePeriod: 5m\n`;
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
${expiry}  limits: {cpu: "${cpuLimit}"}
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
