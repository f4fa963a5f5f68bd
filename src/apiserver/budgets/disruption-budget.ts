/** PodDisruptionBudget arithmetic as the disruption controller computes it from the pods it selects. */
import { matchesRequirements, selectorRequirements } from '../../api/index.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import type { ServerState } from '../state.js';
import { parseEntry } from '../storage/store.js';
import { isJson, type KObject } from '../types.js';

/** A budget's status figures. */
export interface BudgetStatus {
  expectedPods: number;
  currentHealthy: number;
  desiredHealthy: number;
  disruptionsAllowed: number;
}

/** True when a pod counts as healthy: Ready and not terminating. */
export function podHealthy(p: KObject): boolean {
  if (p.metadata.deletionTimestamp) return false;
  const conds = isJson(p.status) && Array.isArray(p.status.conditions) ? p.status.conditions : [];
  return conds.some((c) => isJson(c) && c.type === 'Ready' && c.status === 'True');
}

function scaled(v: unknown, total: number, roundUp: boolean): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.endsWith('%')) {
    const x = (Number(v.slice(0, -1)) * total) / 100;
    return roundUp ? Math.ceil(x) : Math.floor(x);
  }
  return undefined;
}

/** The pods a budget selects (in its namespace, not finished). */
export function selectedPods(state: ServerState, pods: ResourceInfo, pdb: KObject): KObject[] {
  const reqs = selectorRequirements(isJson(pdb.spec) ? pdb.spec.selector : undefined);
  const out: KObject[] = [];
  for (const e of state.store.table(pods).objects.values()) {
    if (!e.inNamespace(pdb.metadata.namespace ?? '')) continue;
    if (!matchesRequirements(reqs, e.labels)) continue;
    const phase = e.field('status.phase');
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    out.push(parseEntry(e));
  }
  return out;
}

/** Computes a budget's status from its selected pods. */
export function budgetStatus(pdb: KObject, pods: KObject[]): BudgetStatus {
  const spec = isJson(pdb.spec) ? pdb.spec : {};
  const expected = pods.length;
  const healthy = pods.filter(podHealthy).length;
  const minAvailable = scaled(spec.minAvailable, expected, true);
  const maxUnavailable = scaled(spec.maxUnavailable, expected, true);
  let desired = expected;
  if (minAvailable !== undefined) desired = minAvailable;
  else if (maxUnavailable !== undefined) desired = Math.max(0, expected - maxUnavailable);
  return {
    expectedPods: expected,
    currentHealthy: healthy,
    desiredHealthy: desired,
    disruptionsAllowed: Math.max(0, healthy - desired),
  };
}

/** The budgets in a namespace whose selector matches the pod's labels. */
export function budgetsFor(state: ServerState, pdbs: ResourceInfo, pod: KObject): KObject[] {
  const out: KObject[] = [];
  for (const e of state.store.table(pdbs).objects.values()) {
    if (!e.inNamespace(pod.metadata.namespace ?? '')) continue;
    const pdb = parseEntry(e);
    const sel = isJson(pdb.spec) ? pdb.spec.selector : undefined;
    // An empty selector selects nothing for policy/v1... except `{}`, which selects every pod.
    if (sel === undefined || sel === null) continue;
    if (matchesRequirements(selectorRequirements(sel), pod.metadata.labels)) out.push(pdb);
  }
  return out;
}
