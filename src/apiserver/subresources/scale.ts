/** The `scale` subresource of Deployments, ReplicaSets and StatefulSets (autoscaling/v1 Scale). */
import { mustGet, subjectOf } from '../storage/commit.js';
import { bodyJson, contentType, type Ctx } from '../http/http-io.js';
import { jsonPatch } from '../patch/json-patch.js';
import { mergePatch } from '../patch/merge-patch.js';
import { writeOptions } from '../patch/patch.js';
import type { ResourcePath } from '../http/resource-path.js';
import { conflict, staleObjectText, unsupportedMediaType } from '../status.js';
import { parseEntry } from '../storage/store.js';
import { isJson, type Json, type KObject } from '../types.js';
import { updateObject } from '../writes/writes.js';

function selectorText(sel: unknown): string {
  const labels = isJson(sel) && isJson(sel.matchLabels) ? sel.matchLabels : {};
  return Object.entries(labels).map(([k, v]) => `${k}=${String(v)}`).join(',');
}

/** The Scale view of a workload. */
export function scaleOf(o: KObject): Json {
  const spec = isJson(o.spec) ? o.spec : {};
  const status = isJson(o.status) ? o.status : {};
  const { name, namespace, uid, resourceVersion, creationTimestamp } = o.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: status.replicas ?? 0, selector: selectorText(spec.selector) },
  };
}

/** GET, PUT or PATCH of `…/scale`: reads or sets spec.replicas. */
export function handleScale(ctx: Ctx, rp: ResourcePath): Json {
  const name = rp.name ?? '';
  const current = parseEntry(mustGet(ctx.state, rp.info, rp.namespace, name));
  if (ctx.method === 'GET') return scaleOf(current);
  const scale = scaleOf(current);
  let next: unknown;
  if (ctx.method === 'PUT') next = bodyJson(ctx);
  else if (contentType(ctx) === 'application/json-patch+json') next = jsonPatch(scale, bodyJson(ctx));
  else if (contentType(ctx).endsWith('merge-patch+json')) next = mergePatch(scale, bodyJson(ctx));
  else throw unsupportedMediaType(contentType(ctx));
  const n = next as { spec?: { replicas?: number }; metadata?: { resourceVersion?: string } };
  const rv = n.metadata?.resourceVersion;
  if (rv && rv !== current.metadata.resourceVersion) throw conflict(subjectOf(rp.info, name), staleObjectText);
  const updated = { ...current, spec: { ...(current.spec as Json), replicas: n.spec?.replicas ?? 0 } };
  return scaleOf(updateObject(ctx.state, rp.info, updated, { ...writeOptions(ctx), namespace: rp.namespace, name }));
}
