/** The `binding` and `eviction` subresources of Pods. */
import { budgetsFor, podReady } from '../budgets/disruption-budget.js';
import { commitWrite, mustGet, subjectOf } from '../storage/commit.js';
import { deleteObject, type DeleteOptions } from '../writes/deletion.js';
import { isDryRun, optionalBody, type Ctx } from '../http/http-io.js';
import type { ResourcePath } from '../http/resource-path.js';
import { ApiError, conflict, forbiddenError } from '../status.js';
import { parseEntry } from '../storage/store.js';
import { isJson, timestamp, type Json, type KObject } from '../types.js';
import type { ResourceInfo } from '../resources/resource-types.js';

function success(code: number): Json {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code };
}

/** POST pods/NAME/binding: sets spec.nodeName once (409 when already bound). */
export function handleBinding(ctx: Ctx, rp: ResourcePath): Json {
  const body = optionalBody(ctx);
  const target = isJson(body.target) ? body.target : {};
  const node = String(target.name ?? '');
  const pod = parseEntry(mustGet(ctx.state, rp.info, rp.namespace, rp.name ?? ''));
  const spec = (isJson(pod.spec) ? pod.spec : {}) as Json;
  if (spec.nodeName)
    throw conflict(
      subjectOf(rp.info, pod.metadata.name ?? ''),
      `pod ${pod.metadata.name ?? ''} is already assigned to node "${String(spec.nodeName)}"`,
    );
  if (pod.metadata.deletionTimestamp)
    throw conflict(subjectOf(rp.info, pod.metadata.name ?? ''), 'pod is being deleted, cannot be assigned to a host');
  pod.spec = { ...spec, nodeName: node };
  const status = (isJson(pod.status) ? pod.status : {}) as Json;
  const conditions = (Array.isArray(status.conditions) ? status.conditions : []).filter(
    (c) => !(isJson(c) && c.type === 'PodScheduled'),
  );
  conditions.push({
    type: 'PodScheduled',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: timestamp(ctx.state.clock.now()),
  });
  pod.status = { ...status, conditions };
  commitWrite(ctx.state, rp.info, pod);
  return success(201);
}

function tooManyRequests(cause: string): ApiError {
  return new ApiError(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
    causes: [{ reason: 'DisruptionBudget', message: cause }],
  });
}

// Pods the eviction deletes without asking a budget: not running yet, finished, or already terminating.
function ignoresBudgets(pod: KObject): boolean {
  const phase = isJson(pod.status) ? pod.status.phase : undefined;
  return phase === 'Pending' || phase === 'Succeeded' || phase === 'Failed' || !!pod.metadata.deletionTimestamp;
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

// The one budget that guards a pod, or undefined; 500 when several do (the eviction subresource refuses).
function guardingBudget(ctx: Ctx, pdbs: ResourceInfo, pod: KObject): KObject | undefined {
  const budgets = budgetsFor(ctx.state, pdbs, pod);
  if (budgets.length > 1)
    throw new ApiError(
      500,
      'InternalError',
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    );
  return budgets[0];
}

// An unhealthy pod does not count towards its budget: it may go when the budget is met anyway.
function unhealthyMayGo(pod: KObject, spec: Json, status: Json): boolean {
  if (podReady(pod)) return false;
  if (spec.unhealthyPodEvictionPolicy === 'AlwaysAllow') return true;
  return num(status.currentHealthy) >= num(status.desiredHealthy) && num(status.desiredHealthy) > 0;
}

// The budget's answer from its status: nothing when a disruption may be taken, else the refusal.
function refusal(pdb: KObject, status: Json): ApiError | undefined {
  const name = pdb.metadata.name ?? '';
  if (num(status.observedGeneration) < (pdb.metadata.generation ?? 0))
    return tooManyRequests(`The disruption budget ${name} is still being processed by the server.`);
  const allowed = num(status.disruptionsAllowed);
  if (allowed < 0)
    return forbiddenError(
      { kind: 'PodDisruptionBudget', group: 'policy', name, resource: 'poddisruptionbudgets' },
      'pdb disruptions allowed is negative',
    );
  if (allowed === 0)
    return tooManyRequests(
      `The disruption budget ${name} needs ${num(status.desiredHealthy)} healthy pods and has ${num(status.currentHealthy)} currently`,
    );
  return undefined;
}

// The budget's status after an eviction takes one disruption: the pod is in disruptedPods until the disruption
// controller sees it terminating.
function spent(status: Json, podName: string, now: string): Json {
  const allowed = num(status.disruptionsAllowed) - 1;
  const disrupted = isJson(status.disruptedPods) ? status.disruptedPods : {};
  const next: Json = { ...status, disruptionsAllowed: allowed, disruptedPods: { ...disrupted, [podName]: now } };
  if (allowed === 0 && Array.isArray(status.conditions))
    next.conditions = status.conditions.map((c) =>
      isJson(c) && c.type === 'DisruptionAllowed' && c.status !== 'False'
        ? { ...c, status: 'False', reason: 'InsufficientPods', lastTransitionTime: now }
        : c,
    );
  return next;
}

/**
 * Checks the pod's budget as kube-apiserver's eviction does: from the budget's status (the disruption
 * controller's figures), taking one disruption and recording the pod in disruptedPods, so a second eviction
 * right after the first is refused while the budget is spent.
 */
function takeDisruption(ctx: Ctx, pod: KObject, dryRun: boolean): void {
  const pdbs = ctx.state.registry.find('policy', 'v1', 'poddisruptionbudgets');
  if (!pdbs || ignoresBudgets(pod)) return;
  const pdb = guardingBudget(ctx, pdbs, pod);
  if (!pdb) return;
  const status = isJson(pdb.status) ? pdb.status : {};
  if (unhealthyMayGo(pod, isJson(pdb.spec) ? pdb.spec : {}, status)) return;
  const refused = refusal(pdb, status);
  if (refused) throw refused;
  if (dryRun) return;
  const now = timestamp(ctx.state.clock.now());
  commitWrite(ctx.state, pdbs, { ...pdb, status: spent(status, pod.metadata.name ?? '', now) });
}

/** POST pods/NAME/eviction: deletes the pod unless its PodDisruptionBudget forbids it (429). */
export function handleEviction(ctx: Ctx, rp: ResourcePath): Json {
  const body = optionalBody(ctx);
  const pod = parseEntry(mustGet(ctx.state, rp.info, rp.namespace, rp.name ?? ''));
  if (pod.metadata.deletionTimestamp) return success(201);
  const raw = isJson(body.deleteOptions) ? body.deleteOptions : {};
  const dryRun = (Array.isArray(raw.dryRun) && raw.dryRun.includes('All')) || isDryRun(ctx);
  takeDisruption(ctx, pod, dryRun);
  const opts = { ...(raw as DeleteOptions), dryRun };
  deleteObject(ctx.state, rp.info, { namespace: rp.namespace, name: rp.name ?? '' }, opts);
  return success(201);
}
