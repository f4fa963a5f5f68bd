/**
 * OpenAPI documents kubectl reads: `/openapi/v3` (an index and one document per group-version, with the CRDs'
 * schemas for `explain` and a `fieldValidation` parameter so `apply` leaves strict validation to the server)
 * and `/openapi/v2` in gnostic protobuf, which kubectl 1.27/1.28 fetch before client-side validation.
 */
import crypto from 'node:crypto';
import { builtinSchemas } from '../builtin/schemas.js';
import { sendJson, type Ctx } from './http-io.js';
import type { ResourceInfo } from '../resources/resource-types.js';

function gvPath(r: { group: string; version: string }): string {
  return r.group ? `apis/${r.group}/${r.version}` : `api/${r.version}`;
}

// Schema names as kube-apiserver writes them: reversed group then version and kind (sh.karpenter.v1.NodePool).
function schemaName(r: ResourceInfo): string {
  const group = r.group ? r.group.split('.').reverse().join('.') : 'io.k8s.api.core';
  return `${group}.${r.version}.${r.kind}`;
}

const fieldValidation = { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } };
const dryRun = { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } };
const fieldManager = { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } };

function operation(r: ResourceInfo, action: string, withBody: boolean): Record<string, unknown> {
  const ref = { $ref: `#/components/schemas/${schemaName(r)}` };
  const op: Record<string, unknown> = {
    operationId: `${action}${r.kind}`,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': { group: r.group, version: r.version, kind: r.kind },
    parameters: withBody ? [fieldValidation, dryRun, fieldManager] : [],
    responses: { '200': { description: 'OK', content: { 'application/json': { schema: ref } } } },
  };
  if (withBody) op.requestBody = { content: { 'application/json': { schema: ref } } };
  return op;
}

function resourcePaths(r: ResourceInfo): Record<string, unknown> {
  const base = `/${gvPath(r)}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.plural}`;
  return {
    [base]: { get: operation(r, 'list', false), post: operation(r, 'post', true) },
    [`${base}/{name}`]: {
      get: operation(r, 'get', false),
      put: operation(r, 'put', true),
      patch: operation(r, 'patch', true),
      delete: operation(r, 'delete', false),
    },
  };
}

// CRDs carry their own schema; built-in kinds get one derived from client-node's models (builtin-schemas.ts).
function schemaOf(r: ResourceInfo, schemas: Record<string, unknown>): Record<string, unknown> {
  const builtin = r.schema ? undefined : builtinSchemas(r);
  for (const [key, s] of builtin?.refs ?? []) schemas[key] = s;
  const base = r.schema
    ? { ...r.schema }
    : (builtin?.root ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  return { ...base, 'x-kubernetes-group-version-kind': [{ group: r.group, version: r.version, kind: r.kind }] };
}

function groupVersionDocument(resources: ResourceInfo[], version: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const r of resources) {
    Object.assign(paths, resourcePaths(r));
    schemas[schemaName(r)] = schemaOf(r, schemas);
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version }, paths, components: { schemas } };
}

function byGroupVersion(ctx: Ctx): Map<string, ResourceInfo[]> {
  const out = new Map<string, ResourceInfo[]>();
  for (const r of ctx.state.registry.all()) {
    const key = gvPath(r);
    out.set(key, [...(out.get(key) ?? []), r]);
  }
  return out;
}

function hashOf(doc: unknown): string {
  return crypto.createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 64).toUpperCase();
}

// Protobuf encoding of a gnostic openapi_v2.Document with only `swagger` (1) and `info` (2: title 1, version 2).
function protoString(field: number, s: string): Buffer {
  const b = Buffer.from(s, 'utf8');
  return Buffer.concat([Buffer.from([(field << 3) | 2, b.length]), b]);
}

function openApiV2Protobuf(version: string): Buffer {
  const info = Buffer.concat([protoString(1, 'Kubernetes'), protoString(2, version)]);
  return Buffer.concat([protoString(1, '2.0'), Buffer.from([(2 << 3) | 2, info.length]), info]);
}

function serveV3(ctx: Ctx, version: string): boolean {
  const groups = byGroupVersion(ctx);
  if (ctx.path === '/openapi/v3' || ctx.path === '/openapi/v3/') {
    const paths: Record<string, unknown> = {};
    for (const [gv, rs] of groups)
      paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${hashOf(groupVersionDocument(rs, version))}` };
    sendJson(ctx.res, 200, { paths });
    return true;
  }
  const rs = groups.get(ctx.path.slice('/openapi/v3/'.length));
  if (!rs) return false;
  sendJson(ctx.res, 200, groupVersionDocument(rs, version));
  return true;
}

/** Serves /openapi/v2 (protobuf or JSON) and /openapi/v3 paths; false for other paths. */
export function serveOpenApi(ctx: Ctx, kubernetesVersion = 'v1.33.1'): boolean {
  if (ctx.path.startsWith('/openapi/v3')) return serveV3(ctx, kubernetesVersion);
  if (ctx.path !== '/openapi/v2' && ctx.path !== '/swagger-2.0.0.pb-v1') return false;
  if (/protobuf/.test(String(ctx.headers.accept ?? '')) || ctx.path.endsWith('pb-v1')) {
    const body = openApiV2Protobuf(kubernetesVersion);
    // A Content-Type with `@` (upstream's gnostic type) breaks kubectl 1.27's MIME parsing.
    ctx.res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    ctx.res.end(body);
  } else
    sendJson(ctx.res, 200, {
      swagger: '2.0',
      info: { title: 'Kubernetes', version: kubernetesVersion },
      paths: {},
      definitions: {},
    });
  return true;
}
