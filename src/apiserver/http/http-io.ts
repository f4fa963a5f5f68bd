/** Request context and response writing shared by every handler. */
import type { IncomingHttpHeaders } from 'node:http';
import YAML from 'yaml';
import { decodeProtobufBody } from '../protobuf/decode.js';
import { ApiError, badRequest } from '../status.js';
import type { ServerState } from '../state.js';
import type { Json } from '../types.js';

/**
 * The part of an HTTP response handlers use. node:http's ServerResponse is one; the in-process transport of
 * the playground's own clients is another, so they skip TLS and HTTP framing.
 */
export interface ResponseSink {
  writeHead(status: number, headers: Record<string, string | number>): unknown;
  /** Returns false when the receiver wants the writer to wait for 'drain'. */
  write(chunk: Buffer | string): boolean;
  end(chunk?: Buffer | string): unknown;
  flushHeaders(): void;
  once(event: 'drain', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  destroy(): unknown;
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
}

/** One request as handlers see it (body already read). */
export interface Ctx {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  res: ResponseSink;
  state: ServerState;
}

/** Writes a JSON answer; `body` may be pre-serialised text or UTF-8 bytes (a stored object). */
export function sendJson(res: ResponseSink, status: number, body: unknown, contentType = 'application/json'): void {
  const bytes = Buffer.isBuffer(body)
    ? body
    : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': bytes.length,
    'cache-control': 'no-cache, private',
  });
  res.end(bytes);
}

/** Writes a failure as a metav1.Status. */
export function sendError(res: ResponseSink, e: ApiError): void {
  const headers: Record<string, string> = {};
  if (e.details?.retryAfterSeconds !== undefined) headers['retry-after'] = String(e.details.retryAfterSeconds);
  const text = JSON.stringify(e.toStatus());
  res.writeHead(e.code, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The request body parsed as JSON (or YAML for apply patches); 400 when it is not an object or array. */
export function bodyJson(ctx: Ctx): unknown {
  const type = contentType(ctx);
  // kubectl 1.32+ sends protobuf for `create <kind>` and `debug` pods; CBOR is only sent when offered.
  if (type === 'application/vnd.kubernetes.protobuf') return decodeProtobufBody(ctx.body);
  // As kube-apiserver: only JSON and YAML bodies (and protobuf, above) are decoded; text/plain and the like are refused.
  if (type.includes('protobuf') || type.includes('cbor') || !(type.endsWith('json') || type.endsWith('yaml'))) {
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`,
    );
  }
  const text = ctx.body.toString('utf8');
  if (!text.trim()) throw badRequest('the request body is empty');
  try {
    return type.includes('yaml') ? (YAML.parse(text) as unknown) : (JSON.parse(text) as unknown);
  } catch (e: unknown) {
    throw badRequest(`the body of the request could not be parsed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The request body as a JSON object, or `{}` when empty. */
export function optionalBody(ctx: Ctx): Json {
  if (ctx.body.length === 0) return {};
  const v = bodyJson(ctx);
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
}

/** The Content-Type without parameters. */
export function contentType(ctx: Ctx): string {
  return (ctx.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? 'application/json';
}

/** The Accept header. */
export function accept(ctx: Ctx): string {
  return String(ctx.headers.accept ?? '');
}

/** True when the client asked for a meta.k8s.io Table (kubectl get). */
export function wantsTable(ctx: Ctx): boolean {
  return /as=Table/.test(accept(ctx));
}

/** True for `?dryRun=All`. */
export function isDryRun(ctx: Ctx): boolean {
  return ctx.query.getAll('dryRun').includes('All');
}
