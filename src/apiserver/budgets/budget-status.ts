/**
 * Keeps PodDisruptionBudget status current, as kube-controller-manager's disruption controller does: Tenon
 * reads status.disruptionsAllowed when it plans disruption, so the playground must maintain it.
 */
import { commitWrite } from '../storage/commit.js';
import { budgetStatus, selectedPods } from './disruption-budget.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import type { ServerState } from '../state.js';
import { parseEntry } from '../storage/store.js';
import { deepEqual, isJson, timestamp, type KObject } from '../types.js';

function desiredStatus(state: ServerState, pods: ResourceInfo, pdb: KObject): Record<string, unknown> {
  const s = budgetStatus(pdb, selectedPods(state, pods, pdb));
  const old = isJson(pdb.status) ? pdb.status : {};
  const allowed = s.disruptionsAllowed > 0;
  const oldCond = Array.isArray(old.conditions)
    ? old.conditions.find((c) => isJson(c) && c.type === 'DisruptionAllowed')
    : undefined;
  const status = allowed ? 'True' : 'False';
  const sameCond = isJson(oldCond) && oldCond.status === status;
  const condition = sameCond
    ? oldCond
    : {
        type: 'DisruptionAllowed',
        status,
        reason: allowed ? 'SufficientPods' : 'InsufficientPods',
        message: '',
        observedGeneration: pdb.metadata.generation,
        lastTransitionTime: timestamp(state.clock.now()),
      };
  return {
    observedGeneration: pdb.metadata.generation,
    ...s,
    disruptedPods: old.disruptedPods ?? {},
    conditions: [condition],
  };
}

function refresh(state: ServerState, namespace: string): void {
  const pods = state.registry.find('', 'v1', 'pods');
  const pdbs = state.registry.find('policy', 'v1', 'poddisruptionbudgets');
  if (!pods || !pdbs) return;
  for (const e of state.store.table(pdbs).objects.values()) {
    if (!e.inNamespace(namespace)) continue;
    const pdb = parseEntry(e);
    if (pdb.metadata.deletionTimestamp) continue;
    const status = desiredStatus(state, pods, pdb);
    if (deepEqual(status, pdb.status)) continue;
    commitWrite(state, pdbs, { ...pdb, status });
  }
}

/** Recomputes the budgets of a namespace after its pods or budgets change (once per batch of writes). */
export function maintainBudgetStatus(state: ServerState): void {
  const pending = new Set<string>();
  state.onCommit.push((info, _type, entry) => {
    const isPod = info.kind === 'Pod' && info.group === '';
    const isPdb = info.kind === 'PodDisruptionBudget';
    if (!isPod && !isPdb) return;
    const ns = entry.namespace;
    if (pending.has(ns)) return;
    const pdbs = state.registry.find('policy', 'v1', 'poddisruptionbudgets');
    if (isPod && pdbs && !hasBudgetIn(state, pdbs, ns)) return;
    pending.add(ns);
    state.defer(() => {
      pending.delete(ns);
      refresh(state, ns);
    });
  });
}

function hasBudgetIn(state: ServerState, pdbs: ResourceInfo, ns: string): boolean {
  for (const e of state.store.table(pdbs).objects.values()) if (e.inNamespace(ns)) return true;
  return false;
}
