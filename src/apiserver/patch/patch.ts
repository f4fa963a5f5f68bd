/** PATCH: JSON merge, JSON patch, strategic merge (built-ins only) and server-side apply. */
import type { JsonSchemaProps } from '../../api/index.js';
import { findObject } from '../storage/commit.js';
import { applyOwnership, createdByApply } from './field-managers.js';
import { bodyJson, contentType, isDryRun, type Ctx } from '../http/http-io.js';
import { jsonPatch } from './json-patch.js';
import { applyMerge } from './list-types.js';
import { mergePatch } from './merge-patch.js';
import { managerFromAgent } from '../writes/metadata.js';
import type { ResourcePath } from '../http/resource-path.js';
import { ApiError, badRequest, unsupportedMediaType } from '../status.js';
import { duplicateKeys } from '../admission/decoding.js';
import { strategicMerge } from './strategic-merge.js';
import { isJson, type KObject } from '../types.js';
import { createObject, updateObject, writerOf, type WriteOptions } from '../writes/writes.js';

const fieldValidations: readonly string[] = ['', 'Ignore', 'Strict', 'Warn'];
const optionsKind: Readonly<Record<string, string>> = {
  POST: 'CreateOptions',
  PUT: 'UpdateOptions',
  PATCH: 'PatchOptions',
};

// 422 for a fieldValidation value kube-apiserver does not know, worded as its options validation words it.
function checkFieldValidation(ctx: Ctx, fv: string): void {
  if (fieldValidations.includes(fv)) return;
  const kind = optionsKind[ctx.method] ?? 'CreateOptions';
  const supported = fieldValidations.map((v) => JSON.stringify(v)).join(', ');
  const detail = `Unsupported value: ${JSON.stringify(fv)}: supported values: ${supported}`;
  throw new ApiError(422, 'Invalid', `${kind}.meta.k8s.io "" is invalid: fieldValidation: ${detail}`, {
    group: 'meta.k8s.io',
    kind,
    causes: [{ reason: 'FieldValueNotSupported', message: detail, field: 'fieldValidation' }],
  });
}

/** The write options a request carries in its query (422 for an unknown fieldValidation value). */
export function writeOptions(ctx: Ctx, defaultManager?: string): WriteOptions {
  const fv = ctx.query.get('fieldValidation') ?? '';
  checkFieldValidation(ctx, fv);
  const strict = fv === 'Strict';
  return {
    dryRun: isDryRun(ctx),
    fieldManager: ctx.query.get('fieldManager') ?? defaultManager ?? managerFromAgent(ctx.headers['user-agent']),
    strict,
    duplicates: strict && contentType(ctx).endsWith('json') ? duplicateKeys(ctx.body.toString('utf8')) : undefined,
  };
}

/** Applies a non-apply patch document of the request's content type to an object. */
export function patchDocument(ctx: Ctx, custom: boolean, current: KObject): KObject {
  const type = contentType(ctx);
  const patch = bodyJson(ctx);
  let next: unknown;
  if (type === 'application/merge-patch+json') next = mergePatch(current, patch);
  else if (type === 'application/json-patch+json') next = jsonPatch(current, patch);
  else if (type === 'application/strategic-merge-patch+json' && !custom) next = strategicMerge(current, patch);
  else throw unsupportedMediaType(type);
  if (!isJson(next) || !isJson(next.metadata)) throw badRequest('the patch removed metadata');
  return next as KObject;
}

// A custom resource merges by its schema's list markers; its metadata is ObjectMeta, merged like a built-in's.
function applyCustom(current: KObject, config: KObject, schema: JsonSchemaProps | undefined): unknown {
  const merged = applyMerge(current, config, schema);
  return isJson(merged) ? { ...merged, metadata: strategicMerge(current.metadata, config.metadata) } : merged;
}

function serverSideApply(ctx: Ctx, rp: ResourcePath, name: string): { status: number; object: KObject } {
  const { info } = rp;
  const config = bodyJson(ctx);
  if (!isJson(config) || !isJson(config.metadata)) throw badRequest('apply configuration has no metadata');
  if (!ctx.query.get('fieldManager')) throw badRequest('PATCH /apply requires a fieldManager');
  const opts: WriteOptions = { ...writeOptions(ctx), operation: 'Apply', subresource: rp.subresource };
  const writer = writerOf(ctx.state, info, opts);
  const current = findObject(ctx.state, info, rp.namespace, name);
  const cfg = config as KObject;
  if (!current) {
    if (rp.subresource) throw new ApiError(404, 'NotFound', `${info.plural} "${name}" not found`);
    const created = { ...cfg, metadata: { ...cfg.metadata, name } };
    return {
      status: 201,
      object: createObject(ctx.state, info, created, {
        ...opts,
        namespace: rp.namespace,
        managedFields: createdByApply(created, writer),
      }),
    };
  }
  // The configuration is merged over the live object (strategically for built-ins); field ownership then
  // decides conflicts and which fields this manager no longer applies.
  const { resourceVersion: _rv, managedFields: _mf, ...meta } = cfg.metadata;
  const merged = (
    info.custom
      ? applyCustom(current, { ...cfg, metadata: meta }, info.schema)
      : strategicMerge(current, { ...cfg, metadata: meta })
  ) as KObject;
  const owned = applyOwnership({
    live: current,
    config: cfg,
    merged,
    writer,
    force: ctx.query.get('force') === 'true',
  });
  return {
    status: 200,
    object: updateObject(ctx.state, info, owned, {
      ...opts,
      namespace: rp.namespace,
      name,
      managedFields: owned.metadata.managedFields,
    }),
  };
}

/** Handles PATCH on an object or its status subresource. */
export function handlePatch(ctx: Ctx, rp: ResourcePath): { status: number; object: KObject } {
  const name = rp.name ?? '';
  if (contentType(ctx) === 'application/apply-patch+yaml') return serverSideApply(ctx, rp, name);
  const current = findObject(ctx.state, rp.info, rp.namespace, name);
  if (!current)
    throw new ApiError(
      404,
      'NotFound',
      `${rp.info.group ? `${rp.info.plural}.${rp.info.group}` : rp.info.plural} "${name}" not found`,
      { name, group: rp.info.group, kind: rp.info.plural },
    );
  const next = patchDocument(ctx, rp.info.custom, current);
  const object = updateObject(ctx.state, rp.info, next, {
    ...writeOptions(ctx),
    namespace: rp.namespace,
    name,
    subresource: rp.subresource,
  });
  return { status: 200, object };
}
