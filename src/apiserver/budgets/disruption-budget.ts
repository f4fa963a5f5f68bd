/**
 * PodDisruptionBudget arithmetic as kube-controller-manager's disruption controller computes it: a percentage
 * or maxUnavailable budget counts the pods the owning controllers' scale asks for (not the pods that exist
 * now), a budget over pods without a controller allows nothing, and pods an eviction just disrupted do not
 * count as healthy until the controller sees them go.
 */
import { matchesRequirements, selectorRequirements } from '../../api/index.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import type { ServerState } from '../state.js';
import { parseEntry } from '../storage/store.js';
import { isJson, type Json, type KObject } from '../types.js';

/** A budget's status figures. */
export interface BudgetStatus {
  expectedPods: number;
  currentHealthy: number;
  desiredHealthy: number;
  disruptionsAllowed: number;
  /** Evicted pods not yet seen terminating, with the time of their eviction (kept at most two minutes). */
  disruptedPods: Record<string, string>;
}

/** Why the figures could not be computed (the controller's fail-safe: no disruption allowed). */
export interface BudgetFailure {
  error: string;
}

/** How long an eviction's pod stays in disruptedPods when it is never seen terminating. */
export const disruptedPodTimeoutMs = 2 * 60_000;

/** True when a pod is Ready (the disruption controller's notion of healthy, before terminating is checked). */
export function podReady(p: KObject): boolean {
  const conds = isJson(p.status) && Array.isArray(p.status.conditions) ? p.status.conditions : [];
  return conds.some((c) => isJson(c) && c.type === 'Ready' && c.status === 'True');
}

/** True when a pod counts as healthy: Ready and not terminating. */
export function podHealthy(p: KObject): boolean {
  return !p.metadata.deletionTimestamp && podReady(p);
}

function scaled(v: unknown, total: number, roundUp: boolean): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.endsWith('%')) {
    const x = (Number(v.slice(0, -1)) * total) / 100;
    return roundUp ? Math.ceil(x) : Math.floor(x);
  }
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return undefined;
}

/** The pods a budget selects: every pod in its namespace its selector matches. */
export function selectedPods(state: ServerState, pods: ResourceInfo, pdb: KObject): KObject[] {
  const reqs = selectorRequirements(isJson(pdb.spec) ? pdb.spec.selector : undefined);
  const out: KObject[] = [];
  for (const e of state.store.table(pods).objects.values()) {
    if (!e.inNamespace(pdb.metadata.namespace ?? '')) continue;
    if (!matchesRequirements(reqs, e.labels)) continue;
    out.push(parseEntry(e));
  }
  return out;
}

function controllerRef(p: KObject): Json | undefined {
  const refs: unknown[] = Array.isArray(p.metadata.ownerReferences) ? p.metadata.ownerReferences : [];
  return refs.find((r): r is Json => isJson(r) && r.controller === true);
}

function at(o: unknown, path: string): unknown {
  let cur: unknown = o;
  for (const part of path.split('.').filter(Boolean)) cur = isJson(cur) ? cur[part] : undefined;
  return cur;
}

const scaledKinds: ReadonlySet<string> = new Set(['ReplicationController', 'ReplicaSet', 'StatefulSet', 'Deployment']);

// The stored object a controller reference names (same uid, kind, name and namespace), with its resource.
function referenced(
  state: ServerState,
  ref: Json,
  namespace: string,
): { owner: KObject; info: ResourceInfo } | undefined {
  const entry = state.uids.get(String(ref.uid ?? ''));
  if (!entry || entry.namespace !== namespace) return undefined;
  const owner = parseEntry(entry);
  return owner.kind === ref.kind && owner.metadata.name === ref.name ? { owner, info: entry.table.info } : undefined;
}

// The controller whose scale a pod's owner stands for: a ReplicaSet a Deployment controls counts as the
// Deployment; a kind with a scale subresource counts with its replicas. Undefined when none is found.
function scaleOwner(state: ServerState, ref: Json, namespace: string): { uid: string; replicas: number } | undefined {
  const found = referenced(state, ref, namespace);
  if (!found) return undefined;
  const { owner, info } = found;
  const parent = owner.kind === 'ReplicaSet' && info.group === 'apps' ? controllerRef(owner) : undefined;
  if (parent?.kind === 'Deployment') return scaleOwner(state, parent, namespace);
  const path = !info.custom && scaledKinds.has(owner.kind ?? '') ? '.spec.replicas' : info.scale?.specReplicasPath;
  if (!path) return undefined;
  const replicas = at(owner, path);
  return { uid: owner.metadata.uid ?? '', replicas: typeof replicas === 'number' ? replicas : 0 };
}

// The summed scale of the controllers of the selected pods; pods without a controller do not count.
function expectedScale(state: ServerState, pods: KObject[]): number | BudgetFailure {
  const owners = new Map<string, number>();
  for (const p of pods) {
    const ref = controllerRef(p);
    if (!ref) continue;
    const owner = scaleOwner(state, ref, p.metadata.namespace ?? '');
    if (!owner) return { error: `found no controllers for pod ${JSON.stringify(p.metadata.name ?? '')}` };
    owners.set(owner.uid, owner.replicas);
  }
  let sum = 0;
  for (const n of owners.values()) sum += n;
  return sum;
}

// The pods still in a budget's disruptedPods: evicted, not yet seen terminating, within the timeout.
function stillDisrupted(pdb: KObject, pods: KObject[], now: number): Record<string, string> {
  const old = isJson(pdb.status) && isJson(pdb.status.disruptedPods) ? pdb.status.disruptedPods : {};
  const byName = new Map(pods.map((p) => [p.metadata.name ?? '', p]));
  const out: Record<string, string> = {};
  for (const [name, time] of Object.entries(old)) {
    const p = byName.get(name);
    if (!p || p.metadata.deletionTimestamp || typeof time !== 'string') continue;
    if (Date.parse(time) + disruptedPodTimeoutMs < now) continue;
    out[name] = time;
  }
  return out;
}

/** Computes a budget's status from the pods it selects and their controllers' scale, or why it cannot. */
export function budgetStatus(
  state: ServerState,
  pdb: KObject,
  pods: KObject[],
  now: number,
): BudgetStatus | BudgetFailure {
  const spec = isJson(pdb.spec) ? pdb.spec : {};
  let expected = pods.length;
  let desired = 0;
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const scale = expectedScale(state, pods);
    if (typeof scale !== 'number') return scale;
    expected = scale;
    desired = Math.max(0, expected - (scaled(spec.maxUnavailable, expected, true) ?? 0));
  } else if (typeof spec.minAvailable === 'number') {
    desired = spec.minAvailable;
  } else if (typeof spec.minAvailable === 'string') {
    const scale = expectedScale(state, pods);
    if (typeof scale !== 'number') return scale;
    expected = scale;
    desired = scaled(spec.minAvailable, expected, true) ?? 0;
  }
  const disruptedPods = stillDisrupted(pdb, pods, now);
  const healthy = pods.filter((p) => podHealthy(p) && !((p.metadata.name ?? '') in disruptedPods)).length;
  const allowed = healthy - desired;
  return {
    expectedPods: expected,
    currentHealthy: healthy,
    desiredHealthy: desired,
    // No pods expected: a budget whose first pods just appeared stays safe until it is computed again.
    disruptionsAllowed: expected <= 0 || allowed <= 0 ? 0 : allowed,
    disruptedPods,
  };
}

/** The budgets in a namespace whose selector matches the pod's labels. */
export function budgetsFor(state: ServerState, pdbs: ResourceInfo, pod: KObject): KObject[] {
  const out: KObject[] = [];
  for (const e of state.store.table(pdbs).objects.values()) {
    if (!e.inNamespace(pod.metadata.namespace ?? '')) continue;
    const pdb = parseEntry(e);
    const sel = isJson(pdb.spec) ? pdb.spec.selector : undefined;
    // An absent selector selects nothing for policy/v1; `{}` selects every pod.
    if (sel === undefined || sel === null) continue;
    if (matchesRequirements(selectorRequirements(sel), pod.metadata.labels)) out.push(pdb);
  }
  return out;
}
