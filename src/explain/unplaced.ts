/**
 * The provisioning controller's side of explanations: one cause and fix per pod it could not place, for its
 * FailedScheduling event. Pods that share a spec shape and the solver's reasons share one diagnosis per pass.
 */
import type { Pod as CorePod } from '../kube/index.js';
import type { InstanceType, UnplacedReason, VolumeInfo } from '../scheduling/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../state/informers.js';
import { diagnose } from './diagnose.js';
import type { Cause } from './model.js';
import { podFacts } from './pod-facts.js';
import { poolFacts, type PoolFacts } from './pool-facts.js';

/** A pod's cause and fix. */
export interface PodCause {
  cause: Cause;
  fix: string;
}

/** Diagnoses the unplaced pods of one provisioning pass. */
export class UnplacedDiagnoser {
  private readonly pools: Map<string, PoolFacts>;
  private readonly memo = new Map<string, PodCause | undefined>();

  /** `instanceTypes` are what each launchable NodePool may launch; the others are judged by their conditions. */
  constructor(args: {
    nodePools: readonly StoredNodePool[];
    nodeClaims: readonly StoredNodeClaim[];
    instanceTypes: ReadonlyMap<string, InstanceType[]>;
    volumes: VolumeInfo;
  }) {
    const ordered = [...args.nodePools].sort(
      (a, b) =>
        (b.spec.weight ?? 0) - (a.spec.weight ?? 0) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
    );
    this.pools = poolFacts({
      nodePools: ordered,
      nodeClasses: undefined,
      nodeClaims: args.nodeClaims,
      instanceTypes: args.instanceTypes,
    });
    this.volumes = args.volumes;
  }

  private readonly volumes: VolumeInfo;

  /** The pod's cause and fix, or undefined when none stands out (the solver's reasons are then all there is). */
  diagnose(pod: CorePod, reasons: readonly UnplacedReason[]): PodCause | undefined {
    const s = pod.spec;
    const key = JSON.stringify([
      reasons.map((r) => r.message),
      pod.metadata.namespace,
      s.nodeSelector,
      s.affinity,
      s.tolerations,
      s.containers.map((c) => c.resources),
      s.initContainers?.map((c) => c.resources),
      s.volumes,
    ]);
    if (this.memo.has(key)) return this.memo.get(key);
    const head = diagnose(this.pools, podFacts(pod, this.volumes), reasons).head;
    const out = head ? { cause: head.cause, fix: head.fix } : undefined;
    this.memo.set(key, out);
    return out;
  }
}
