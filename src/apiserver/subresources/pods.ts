/** The `binding` and `eviction` subresources of Pods. */
import { budgetStatus, budgetsFor, podHealthy, selectedPods } from '../budgets/disruption-budget.js';
import { commitWrite, mustGet, subjectOf } from '../storage/commit.js';
import { deleteObject, type DeleteOptions } from '../writes/deletion.js';
import { optionalBody, type Ctx } from '../http/http-io.js';
import type { ResourcePath } from '../http/resource-path.js';
import { ApiError, conflict } from '../status.js';
import { parseEntry } from '../storage/store.js';
import { isJson, timestamp, type Json, type KObject } from '../types.js';

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

function checkBudgets(ctx: Ctx, rp: ResourcePath, pod: KObject): void {
  const pdbs = ctx.state.registry.find('policy', 'v1', 'poddisruptionbudgets');
  if (!pdbs || !podHealthy(pod)) return;
  const budgets = budgetsFor(ctx.state, pdbs, pod);
  if (budgets.length > 1) {
    throw new ApiError(
      500,
      'InternalError',
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    );
  }
  const pdb = budgets[0];
  if (!pdb) return;
  const s = budgetStatus(pdb, selectedPods(ctx.state, rp.info, pdb));
  if (s.disruptionsAllowed > 0) return;
  const name = pdb.metadata.name ?? '';
  throw new ApiError(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
    causes: [
      {
        reason: 'DisruptionBudget',
        message: `The disruption budget ${name} needs ${s.desiredHealthy} healthy pods and has ${s.currentHealthy} currently`,
      },
    ],
  });
}

/** POST pods/NAME/eviction: deletes the pod unless a PodDisruptionBudget forbids it (429). */
export function handleEviction(ctx: Ctx, rp: ResourcePath): Json {
  const body = optionalBody(ctx);
  const pod = parseEntry(mustGet(ctx.state, rp.info, rp.namespace, rp.name ?? ''));
  if (pod.metadata.deletionTimestamp) return success(201);
  checkBudgets(ctx, rp, pod);
  const opts = (isJson(body.deleteOptions) ? body.deleteOptions : {}) as DeleteOptions;
  deleteObject(ctx.state, rp.info, { namespace: rp.namespace, name: rp.name ?? '' }, opts);
  return success(201);
}
