/** The HTTPS server: bearer-token auth, fault injection, routing to discovery, OpenAPI and resources. */
import crypto from 'node:crypto';
import https from 'node:https';
import tls from 'node:tls';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { serveDiscovery } from './discovery.js';
import { durableResponse } from '../storage/durable-state.js';
import { FaultExemptHeader, type FaultInjector } from '../faults.js';
import { sendError, sendJson, type Ctx, type ResponseSink } from './http-io.js';
import { serveOpenApi } from './openapi.js';
import { parseResourcePath } from './resource-path.js';
import { handleResource, verbOf } from './rest.js';
import type { ServerState } from '../state.js';
import { ApiError, unauthorized } from '../status.js';
import type { ServingCerts } from '../tls/tls.js';

/** What the HTTP layer needs besides the state. */
export interface HttpOptions {
  token: string;
  kubernetesVersion: string;
  certs: ServingCerts;
}

function versionInfo(v: string): Record<string, string> {
  const [major = '1', minor = '33'] = v.replace(/^v/, '').split('.');
  return {
    major,
    minor,
    gitVersion: v.startsWith('v') ? v : `v${v}`,
    gitCommit: 'tenon',
    gitTreeState: 'clean',
    buildDate: '2025-01-01T00:00:00Z',
    goVersion: 'go1.23.0',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

function authorized(req: IncomingMessage, token: string): boolean {
  const h = req.headers.authorization ?? '';
  const given = Buffer.from(h.startsWith('Bearer ') ? h.slice(7).trim() : '');
  const want = Buffer.from(token);
  return given.length === want.length && crypto.timingSafeEqual(given, want);
}

function route(ctx: Ctx, version: string): void {
  const faults = ctx.state.faults as FaultInjector;
  if (ctx.path === '/version' || ctx.path === '/version/') return sendJson(ctx.res, 200, versionInfo(version));
  if (ctx.path === '/healthz' || ctx.path === '/readyz' || ctx.path === '/livez') {
    ctx.res.writeHead(200, { 'content-type': 'text/plain' });
    ctx.res.end('ok');
    return;
  }
  if (serveOpenApi(ctx, version)) return;
  const rp = parseResourcePath(ctx.state.registry, ctx.path);
  if (!rp) {
    if (serveDiscovery(ctx)) return;
    throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  }
  if (ctx.headers[FaultExemptHeader] === undefined)
    faults.check(verbOf(ctx, rp), rp.subresource ? `${rp.info.plural}/${rp.subresource}` : rp.info.plural);
  handleResource(ctx, rp);
}

/** The largest request body kube-apiserver accepts (3 MiB). */
const maxRequestBodyBytes = 3 * 1024 * 1024;

function entityTooLarge(): ApiError {
  return new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${maxRequestBodyBytes}`);
}

/** The request's body, or undefined once it passes the limit (the rest is read and dropped, never held). */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] | undefined = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxRequestBodyBytes) chunks = undefined;
      else chunks?.push(c);
    });
    req.on('end', () => resolve(chunks && Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

/** A request from inside the process: already authenticated, body already read. */
export interface LocalRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/pods?watch=true`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Serves one authenticated request whose body has been read; failures become a metav1.Status answer. */
export async function dispatch(
  state: ServerState,
  version: string,
  req: LocalRequest,
  res: ResponseSink,
): Promise<void> {
  try {
    const url = new URL(req.url, 'https://127.0.0.1');
    // kube-apiserver refuses request bodies past 3 MiB before decoding them.
    if (req.body.length > maxRequestBodyBytes) throw entityTooLarge();
    await delay((state.faults as FaultInjector).latencyMs);
    const ctx: Ctx = {
      method: req.method,
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: req.body,
      res,
      state,
    };
    route(ctx, version);
  } catch (e: unknown) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const err =
      e instanceof ApiError
        ? e
        : new ApiError(500, 'InternalError', `Internal error occurred: ${e instanceof Error ? e.message : String(e)}`);
    sendError(res, err);
  }
}

async function serve(state: ServerState, opts: HttpOptions, req: IncomingMessage, res: ResponseSink): Promise<void> {
  const url = req.url ?? '/';
  const isVersion = /^\/version\/?(\?|$)/.test(url);
  if (!isVersion && !authorized(req, opts.token)) return sendError(res, unauthorized());
  const body = await readBody(req);
  if (!body) return sendError(res, entityTooLarge());
  await dispatch(state, opts.kubernetesVersion, { method: req.method ?? 'GET', url, headers: req.headers, body }, res);
}

// AES-128-GCM first: large lists are bound by encryption, and it is a third cheaper than Node's default
// AES-256-GCM. Every client (Go's kubectl, Node) offers it.
const cipherPreference = `TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:${tls.DEFAULT_CIPHERS}`;

/** Creates the HTTPS server (not yet listening). */
export function createHttpsServer(state: ServerState, opts: HttpOptions): https.Server {
  const server = https.createServer(
    {
      cert: opts.certs.certPem,
      key: opts.certs.keyPem,
      keepAlive: true,
      ciphers: cipherPreference,
      honorCipherOrder: true,
    },
    (req, res) => {
      // With saved state, the answer to a write leaves only once the write is durable (storage/durable-state.ts).
      const log = state.writeLog;
      const sink = log && req.method !== 'GET' ? durableResponse(res, log) : res;
      serve(state, opts, req, sink).catch(() => res.destroy());
    },
  );
  server.keepAliveTimeout = 60_000;
  return server;
}
