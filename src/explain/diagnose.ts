/**
 * One cause for a pod the solver could not place: every NodePool's finding, the pod-wide reasons (an unbound
 * Immediate volume), and the closest of them as the headline. The provisioning controller's FailedScheduling
 * event and `tenon explain pod` both say it.
 */
import type { UnplacedReason } from '../scheduling/index.js';
import { poolFinding, solverFixes, type Finding, type PodFacts } from './pod-findings.js';
import type { PoolFacts } from './pool-facts.js';

/** What is known about why a pod stays unplaced. */
export interface Diagnosis {
  /** The closest cause, if any was found. */
  head: Finding | undefined;
  /** One finding per NodePool, in the NodePools' order. */
  perPool: Finding[];
  /** The solver's lines about existing nodes and NodeClaims planned in the same pass. */
  others: string[];
}

const podWideFixes: Record<string, string> = {
  'volume-binding': 'wait for the PersistentVolumeClaim to be bound, or check its StorageClass provisioner',
  invalid: 'fix the pod spec',
};

/**
 * A reason that holds on every node (an unbound Immediate volume, a required pod affinity no pod matches): no target,
 * and not the solver's summary of refusals by existing nodes or planned NodeClaims (which counts them).
 */
function isPodWide(r: UnplacedReason): boolean {
  return r.target === undefined && r.constraint !== 'no-nodepool' && r.details?.['nodes'] === undefined;
}

/** Diagnoses a pod from the solver's reasons and the NodePools' facts. */
export function diagnose(
  pools: ReadonlyMap<string, PoolFacts>,
  pod: PodFacts,
  reasons: readonly UnplacedReason[],
): Diagnosis {
  const perPool: Finding[] = [];
  for (const f of pools.values()) {
    const found = poolFinding(
      f,
      pod,
      reasons.find((r) => r.target === `nodepool/${f.name}`),
    );
    if (found) perPool.push(found);
  }
  const podWide: Finding[] = reasons.filter(isPodWide).map((r) => ({
    cause: {
      constraint: r.constraint,
      object: `Pod/${pod.key}`,
      numbers: { ...(r.details ?? {}) },
      message: r.message,
    },
    fix: podWideFixes[r.constraint] ?? solverFixes[r.constraint] ?? 'see the detail lines',
    rank: podWideFixes[r.constraint] !== undefined ? 10 : 6,
  }));
  if (pools.size === 0)
    podWide.push({
      cause: {
        constraint: 'no-nodepool',
        object: 'NodePool/*',
        numbers: { nodePools: 0 },
        message: 'no NodePool exists',
      },
      fix: 'create a NodePool (and its EC2NodeClass)',
      rank: 10,
    });
  let head: Finding | undefined;
  for (const f of [...podWide, ...perPool]) if (!head || f.rank > head.rank) head = f;
  const others = reasons
    .filter((r) => !r.target?.startsWith('nodepool/') && !isPodWide(r) && r.constraint !== 'no-nodepool')
    .map((r) => r.message);
  return { head, perPool, others };
}
