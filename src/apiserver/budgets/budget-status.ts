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

const scaledKinds: ReadonlySet<string> = new Set(['ReplicationController', 'ReplicaSet', 'StatefulSet', 'Deployment']);

// The DisruptionAllowed condition: its transition time moves only when its status changes.
function allowedCondition(
  state: ServerState,
  old: Record<string, unknown>,
  want: { status: 'True' | 'False'; reason: string; message: string; observedGeneration: unknown },
): Record<string, unknown> {
  const oldCond = Array.isArray(old.conditions)
    ? old.conditions.find((c) => isJson(c) && c.type === 'DisruptionAllowed')
    : undefined;
  const since =
    isJson(oldCond) && oldCond.status === want.status && typeof oldCond.lastTransitionTime === 'string'
      ? oldCond.lastTransitionTime
      : timestamp(state.clock.now());
  return { type: 'DisruptionAllowed', ...want, lastTransitionTime: since };
}

/** The status the disruption controller would write for a budget now. */
export function desiredStatus(state: ServerState, pods: ResourceInfo, pdb: KObject): Record<string, unknown> {
  const old = isJson(pdb.status) ? pdb.status : {};
  const s = budgetStatus(state, pdb, selectedPods(state, pods, pdb), state.clock.now());
  if ('error' in s) {
    // The controller's fail-safe: nothing allowed, the old figures and observedGeneration kept.
    const condition = allowedCondition(state, old, {
      status: 'False',
      reason: 'SyncFailed',
      message: s.error,
      observedGeneration: old.observedGeneration,
    });
    return { ...old, disruptionsAllowed: 0, conditions: [condition] };
  }
  const { disruptedPods, ...figures } = s;
  const allowed = figures.disruptionsAllowed > 0;
  const condition = allowedCondition(state, old, {
    status: allowed ? 'True' : 'False',
    reason: allowed ? 'SufficientPods' : 'InsufficientPods',
    message: '',
    observedGeneration: pdb.metadata.generation,
  });
  return {
    ...(Object.keys(disruptedPods).length > 0 ? { disruptedPods } : {}),
    ...figures,
    observedGeneration: pdb.metadata.generation,
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
    // A controller's scale changes what a percentage or maxUnavailable budget expects.
    const isScaled = info.custom ? info.scale !== undefined : scaledKinds.has(info.kind);
    if (!isPod && !isPdb && !isScaled) return;
    const ns = entry.namespace;
    if (pending.has(ns)) return;
    const pdbs = state.registry.find('policy', 'v1', 'poddisruptionbudgets');
    if (!isPdb && pdbs && !hasBudgetIn(state, pdbs, ns)) return;
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
