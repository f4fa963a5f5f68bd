/**
 * Karpenter's pdb.Limits: a pod can be evicted voluntarily only when exactly one PodDisruptionBudget selects it
 * (the eviction API refuses pods under several) and that budget allows at least one more disruption.
 */
import { compileSelector, type LabelMatcher } from '../../../api/index.js';
import type * as sched from '../../../scheduling/index.js';
import type { DisruptionPdb } from '../types.js';

interface CompiledPdb {
  pdb: DisruptionPdb;
  matches: LabelMatcher;
}

/** The PDBs of a cluster, compiled once per pass. */
export class PdbLimits {
  private readonly byNamespace = new Map<string, CompiledPdb[]>();

  /** Compiles the PDBs. */
  constructor(pdbs: readonly DisruptionPdb[]) {
    for (const pdb of pdbs) {
      const list = this.byNamespace.get(pdb.namespace) ?? [];
      list.push({ pdb, matches: compileSelector(pdb.selector) });
      this.byNamespace.set(pdb.namespace, list);
    }
  }

  /** The PDBs that select a pod. */
  selecting(pod: sched.Pod): DisruptionPdb[] {
    const list = this.byNamespace.get(pod.metadata.namespace ?? 'default') ?? [];
    return list.filter((c) => c.matches(pod.metadata.labels)).map((c) => c.pdb);
  }

  /** Why the pod cannot be evicted now, or undefined when it can. */
  blocks(pod: sched.Pod): string | undefined {
    const pdbs = this.selecting(pod);
    const names = pdbs.map((p) => `${p.namespace}/${p.name}`);
    if (pdbs.length > 1)
      return `pod ${pod.metadata.namespace ?? 'default'}/${pod.metadata.name} is selected by more than one PodDisruptionBudget (${names.join(', ')})`;
    const only = pdbs[0];
    if (only && only.disruptionsAllowed <= 0)
      return `pdb prevents pod evictions (PodDisruptionBudget=[${names[0] ?? ''}])`;
    return undefined;
  }
}
