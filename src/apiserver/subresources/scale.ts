/** The `scale` subresource of Deployments, ReplicaSets, StatefulSets and CRDs that declare one (autoscaling/v1 Scale). */
import { mustGet, subjectOf } from '../storage/commit.js';
import { bodyJson, contentType, type Ctx } from '../http/http-io.js';
import { jsonPatch } from '../patch/json-patch.js';
import { mergePatch } from '../patch/merge-patch.js';
import { writeOptions } from '../patch/patch.js';
import type { ResourcePath } from '../http/resource-path.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import { conflict, notFound, staleObjectText, unsupportedMediaType } from '../status.js';
import { parseEntry } from '../storage/store.js';
import { isJson, type Json, type KObject } from '../types.js';
import { updateObject } from '../writes/writes.js';

function selectorText(sel: unknown): string {
  const labels = isJson(sel) && isJson(sel.matchLabels) ? sel.matchLabels : {};
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(',');
}

const builtinPaths = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.spec.selector',
};

// A CRD's replica paths are simple dotted JSON paths (`.spec.replicas`), as apiextensions requires.
function at(o: unknown, path: string | undefined): unknown {
  if (!path) return undefined;
  let cur: unknown = o;
  for (const part of path.split('.').filter(Boolean)) cur = isJson(cur) ? cur[part] : undefined;
  return cur;
}

function withAt(o: KObject, path: string, value: number): KObject {
  const parts = path.split('.').filter(Boolean);
  const copy = structuredClone(o) as Json;
  let cur: Json = copy;
  for (const part of parts.slice(0, -1)) {
    const next = isJson(cur[part]) ? (cur[part] as Json) : {};
    cur[part] = next;
    cur = next;
  }
  cur[parts[parts.length - 1] ?? 'replicas'] = value;
  return copy as KObject;
}

/** The Scale view of a workload, or of a custom resource through its CRD's scale paths. */
export function scaleOf(o: KObject, paths: ResourceInfo['scale'] = builtinPaths): Json {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = o.metadata;
  const selector = paths?.labelSelectorPath ? at(o, paths.labelSelectorPath) : undefined;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: at(o, paths?.specReplicasPath) ?? 0 },
    status: {
      replicas: at(o, paths?.statusReplicasPath) ?? 0,
      selector: typeof selector === 'string' ? selector : selectorText(selector),
    },
  };
}

/** GET, PUT or PATCH of `…/scale`: reads or sets spec.replicas. */
export function handleScale(ctx: Ctx, rp: ResourcePath): Json {
  const name = rp.name ?? '';
  const paths = rp.info.custom ? rp.info.scale : builtinPaths;
  if (!paths) throw notFound(subjectOf(rp.info, name));
  const current = parseEntry(mustGet(ctx.state, rp.info, rp.namespace, name));
  if (ctx.method === 'GET') return scaleOf(current, paths);
  const scale = scaleOf(current, paths);
  let next: unknown;
  if (ctx.method === 'PUT') next = bodyJson(ctx);
  else if (contentType(ctx) === 'application/json-patch+json') next = jsonPatch(scale, bodyJson(ctx));
  else if (contentType(ctx).endsWith('merge-patch+json')) next = mergePatch(scale, bodyJson(ctx));
  else throw unsupportedMediaType(contentType(ctx));
  const n = next as { spec?: { replicas?: number }; metadata?: { resourceVersion?: string } };
  const rv = n.metadata?.resourceVersion;
  if (rv && rv !== current.metadata.resourceVersion) throw conflict(subjectOf(rp.info, name), staleObjectText);
  const updated = withAt(current, paths.specReplicasPath, n.spec?.replicas ?? 0);
  return scaleOf(
    updateObject(ctx.state, rp.info, updated, { ...writeOptions(ctx), namespace: rp.namespace, name }),
    paths,
  );
}
