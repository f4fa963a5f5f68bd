/** The REST verbs on resource paths: get, list, watch, create, update, patch, delete, deletecollection. */
import { mustGet, storedBytes } from '../storage/commit.js';
import { deleteObject, type DeleteOptions } from '../writes/deletion.js';
import { bodyJson, optionalBody, sendJson, wantsTable, type Ctx } from './http-io.js';
import { filterFromQuery, listPage, matches } from './list.js';
import { sendListBody } from './list-body.js';
import { handlePatch, writeOptions } from '../patch/patch.js';
import { handleBinding, handleEviction } from '../subresources/pods.js';
import { servePodLog } from '../subresources/pod-log.js';
import { apiVersionOf } from '../resources/resource-types.js';
import type { ResourcePath } from './resource-path.js';
import { handleScale } from '../subresources/scale.js';
import { ApiError, badRequest, malformedRvText, methodNotAllowed } from '../status.js';
import { parseEntry } from '../storage/store.js';
import { renderTable } from '../printing/table.js';
import { isJson, type KObject } from '../types.js';
import { checkQuantities, checkTypeMatches, checkValueTypes } from '../admission/decoding.js';
import { containersOf, podSpecOf } from '../admission/pod-resources.js';
import { serveWatch } from './watch.js';
import { createObject, updateObject } from '../writes/writes.js';

/** The verb a request performs, for fault injection and errors. */
export function verbOf(ctx: Ctx, rp: ResourcePath): string {
  const m = ctx.method;
  if (m === 'GET')
    return rp.name ? 'get' : ctx.query.get('watch') === 'true' || ctx.query.get('watch') === '1' ? 'watch' : 'list';
  if (m === 'POST') return 'create';
  if (m === 'PUT') return 'update';
  if (m === 'PATCH') return 'patch';
  if (m === 'DELETE') return rp.name ? 'delete' : 'deletecollection';
  return m.toLowerCase();
}

function sendObject(ctx: Ctx, rp: ResourcePath, status: number, o: KObject): void {
  if (wantsTable(ctx)) {
    sendJson(
      ctx.res,
      status,
      renderTable(rp.info, [o], {
        now: ctx.state.clock.now(),
        resourceVersion: o.metadata.resourceVersion ?? '',
        includeObject: ctx.query.get('includeObject') === 'Object',
      }),
    );
  } else sendJson(ctx.res, status, storedBytes(ctx.state, o) ?? o);
}

function handleList(ctx: Ctx, rp: ResourcePath): void {
  const { state, query } = ctx;
  const table = state.store.table(rp.info);
  const filter = filterFromQuery(query, rp.namespace, table);
  const page = listPage(table, filter, {
    limit: Number(query.get('limit') ?? 0),
    continueToken: query.get('continue'),
    rv: state.store.currentRv(),
  });
  const rv = page.rv;
  if (wantsTable(ctx)) {
    const objects = page.entries.map(parseEntry);
    sendJson(
      ctx.res,
      200,
      renderTable(rp.info, objects, {
        now: state.clock.now(),
        resourceVersion: String(rv),
        continueToken: page.continueToken,
        remaining: page.remaining,
        includeObject: query.get('includeObject') === 'Object',
      }),
    );
    return;
  }
  const meta: Record<string, unknown> = { resourceVersion: String(rv) };
  if (page.continueToken) meta.continue = page.continueToken;
  if (page.remaining !== undefined) meta.remainingItemCount = page.remaining;
  sendListBody(
    ctx.res,
    `{"kind":"${rp.info.listKind}","apiVersion":"${apiVersionOf(rp.info)}","metadata":${JSON.stringify(meta)},"items":[`,
    page.entries,
  );
}

function handleGet(ctx: Ctx, rp: ResourcePath): void {
  if (rp.subresource === 'scale') {
    sendJson(ctx.res, 200, handleScale(ctx, rp));
    return;
  }
  if (rp.subresource === 'log' && rp.info.kind === 'Pod') return servePodLog(ctx, rp);
  if (rp.subresource && rp.subresource !== 'status') throw methodNotAllowed();
  const e = mustGet(ctx.state, rp.info, rp.namespace, rp.name ?? '');
  if (wantsTable(ctx)) sendObject(ctx, rp, 200, parseEntry(e));
  else sendJson(ctx.res, 200, e.json);
}

// What kube-apiserver's decoder refuses in a create or update body of a built-in kind (400 BadRequest).
function decodedBody(ctx: Ctx, rp: ResourcePath): KObject {
  const body = bodyJson(ctx);
  if (rp.info.custom || !isJson(body)) return body as KObject;
  checkTypeMatches(rp.info, body);
  checkValueTypes(rp.info, body);
  const o = body as KObject;
  const pod = podSpecOf({ ...o, kind: rp.info.kind });
  if (pod)
    checkQuantities(
      rp.info,
      containersOf(pod.spec, pod.at).map((c) => c.container),
    );
  return o;
}

function handlePost(ctx: Ctx, rp: ResourcePath): void {
  if (rp.name && rp.subresource === 'binding' && rp.info.kind === 'Pod')
    return sendJson(ctx.res, 201, handleBinding(ctx, rp));
  if (rp.name && rp.subresource === 'eviction' && rp.info.kind === 'Pod')
    return sendJson(ctx.res, 201, handleEviction(ctx, rp));
  if (rp.name) throw methodNotAllowed();
  const body = decodedBody(ctx, rp);
  sendObject(ctx, rp, 201, createObject(ctx.state, rp.info, body, { ...writeOptions(ctx), namespace: rp.namespace }));
}

function handlePut(ctx: Ctx, rp: ResourcePath): void {
  if (!rp.name) throw methodNotAllowed();
  if (rp.subresource === 'scale') return sendJson(ctx.res, 200, handleScale(ctx, rp));
  if (rp.subresource && rp.subresource !== 'status' && rp.subresource !== 'finalize') throw methodNotAllowed();
  const sub = rp.subresource === 'status' ? 'status' : undefined;
  const o = updateObject(ctx.state, rp.info, decodedBody(ctx, rp), {
    ...writeOptions(ctx),
    namespace: rp.namespace,
    name: rp.name,
    subresource: sub,
  });
  sendObject(ctx, rp, 200, o);
}

function deleteOptionsOf(ctx: Ctx): DeleteOptions {
  const raw = optionalBody(ctx);
  const body = raw as DeleteOptions;
  const bodyDryRun = Array.isArray(raw.dryRun) && raw.dryRun.includes('All');
  const grace = ctx.query.get('gracePeriodSeconds');
  const policy = ctx.query.get('propagationPolicy');
  return {
    ...body,
    gracePeriodSeconds: grace !== null ? Number(grace) : body.gracePeriodSeconds,
    propagationPolicy: (policy ?? body.propagationPolicy) as DeleteOptions['propagationPolicy'],
    dryRun: ctx.query.getAll('dryRun').includes('All') || bodyDryRun,
  };
}

function handleDelete(ctx: Ctx, rp: ResourcePath): void {
  const opts = deleteOptionsOf(ctx);
  if (rp.name) {
    if (rp.subresource) throw methodNotAllowed();
    const r = deleteObject(ctx.state, rp.info, { namespace: rp.namespace, name: rp.name }, opts);
    return sendJson(ctx.res, r.removed ? 200 : 202, r.object);
  }
  const table = ctx.state.store.table(rp.info);
  const filter = filterFromQuery(ctx.query, rp.namespace, table);
  const items: KObject[] = [];
  // Keys first, entries one at a time: a compact table (Events) rebuilds each entry it is asked for.
  for (const key of [...table.objects.keys()]) {
    const e = table.objects.get(key);
    if (!e || !matches(filter, e)) continue;
    const name = e.name;
    items.push(deleteObject(ctx.state, rp.info, { namespace: e.namespace || undefined, name }, opts).object);
  }
  sendJson(ctx.res, 200, {
    kind: rp.info.listKind,
    apiVersion: apiVersionOf(rp.info),
    metadata: { resourceVersion: String(ctx.state.store.currentRv()) },
    items,
  });
}

// A resourceVersion that is not a number: a list or get is a 400; a watch, as kube-apiserver answers it, a 500.
function checkResourceVersion(ctx: Ctx, rp: ResourcePath): void {
  const rv = ctx.query.get('resourceVersion');
  if (!rv || /^\d+$/.test(rv)) return;
  if (verbOf(ctx, rp) === 'watch') throw new ApiError(500, '', malformedRvText(rv));
  throw badRequest(`invalid resource version: ${malformedRvText(rv)}`);
}

/** Serves one request on a resource path. */
export function handleResource(ctx: Ctx, rp: ResourcePath): void {
  if (rp.namespace !== undefined && !rp.info.namespaced) throw badRequest('the resource is not namespaced');
  switch (ctx.method) {
    case 'GET':
      checkResourceVersion(ctx, rp);
      if (rp.name) return handleGet(ctx, rp);
      if (verbOf(ctx, rp) === 'watch') return serveWatch(ctx, rp.info, rp.namespace);
      return handleList(ctx, rp);
    case 'POST':
      return handlePost(ctx, rp);
    case 'PUT':
      return handlePut(ctx, rp);
    case 'PATCH': {
      if (!rp.name) throw methodNotAllowed();
      if (rp.subresource === 'scale') return sendJson(ctx.res, 200, handleScale(ctx, rp));
      const r = handlePatch(ctx, rp);
      return sendObject(ctx, rp, r.status, r.object);
    }
    case 'DELETE':
      return handleDelete(ctx, rp);
    default:
      throw methodNotAllowed();
  }
}
