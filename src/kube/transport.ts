import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { sleep, systemClock } from '../clock/index.js';
import { KubeCredentials } from './credentials.js';
import { RateLimiter, retryDelay, type RequestPolicy } from './request-policy.js';

/** One HTTP request to the API server. */
export interface TransportRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
}

/** A complete, buffered response. */
export interface TransportResponse {
  status: number;
  body: string;
}

/** Moves requests to the API server: buffered ones and line-streamed watches. */
export interface Transport {
  /** Sends a request and buffers the whole response. */
  request(req: TransportRequest): Promise<TransportResponse>;
  /** Opens a streaming GET; `onLine` gets each newline-terminated line; resolves with the status when the stream ends. */
  stream(req: TransportRequest & { onLine: (line: string) => void; signal: AbortSignal }): Promise<TransportResponse>;
}

/** Splits a stream of text into newline-terminated lines; what follows the last newline is kept for later. */
export class LineBuffer {
  /** Text after the last complete line. */
  rest = '';

  /** Adds a chunk and hands each complete non-blank line to `onLine`; true when any line ended. */
  push(chunk: string, onLine: (line: string) => void): boolean {
    this.rest += chunk;
    let ended = false;
    for (let i = this.rest.indexOf('\n'); i >= 0; i = this.rest.indexOf('\n')) {
      const line = this.rest.slice(0, i);
      this.rest = this.rest.slice(i + 1);
      ended = true;
      if (line.trim()) onLine(line);
    }
    return ended;
  }
}

/** The request's path with its query string. */
export function withQuery(path: string, query: TransportRequest['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
  const q = params.toString();
  return q ? `${path}?${q}` : path;
}

/** Options of transportFromKubeConfig; without a policy there are no limits, timeouts or retries (the playground). */
export interface TransportOptions {
  policy?: RequestPolicy;
}

/** One attempt's outcome: an answer, or no answer (status 0) with the network error. */
interface Attempt {
  res: TransportResponse;
  retryAfter?: string;
  error?: Error;
}

/**
 * A keep-alive HTTP(S) transport on a client-node KubeConfig whose credentials are read for every request
 * (KubeCredentials). A 401 drops cached tokens and retries once with freshly read ones (a rotated token file).
 * With a policy: client-side QPS/burst, a timeout per buffered request, and retries on 429/Retry-After and 5xx.
 */
export async function transportFromKubeConfig(kc: KubeConfig, o: TransportOptions = {}): Promise<Transport> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const server = new URL(cluster.server);
  const lib = server.protocol === 'https:' ? https : http;
  const credentials = new KubeCredentials(kc);
  await credentials.current();
  const policy = o.policy;
  const limiter = policy?.qps ? new RateLimiter(policy.clock, policy.qps, policy.burst ?? policy.qps) : undefined;

  async function open(
    req: TransportRequest,
    onResponse: (res: http.IncomingMessage) => void,
    signal?: AbortSignal,
  ): Promise<http.ClientRequest> {
    await limiter?.wait();
    const { headers: auth, agent } = await credentials.current();
    const payload =
      req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    const headers: Record<string, string> = { ...auth, accept: 'application/json' };
    if (payload !== undefined) {
      headers['content-type'] = req.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const r = lib.request(
      {
        protocol: server.protocol,
        hostname: server.hostname,
        port: server.port,
        method: req.method,
        path: withQuery(req.path, req.query),
        headers,
        agent,
        signal,
      },
      onResponse,
    );
    if (payload !== undefined) r.write(payload);
    r.end();
    return r;
  }

  function attempt(req: TransportRequest): Promise<Attempt> {
    return new Promise((resolve) => {
      const answered = (error: Error): void => resolve({ res: { status: 0, body: '' }, error });
      open(req, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            res: { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') },
            retryAfter: header(res, 'retry-after'),
          }),
        );
        res.on('error', answered);
      }).then((r) => {
        r.on('error', answered);
        if (policy?.timeoutMs)
          r.setTimeout(policy.timeoutMs, () =>
            r.destroy(
              new Error(`${req.method} ${req.path}: no answer from the API server within ${policy.timeoutMs} ms`),
            ),
          );
      }, answered);
    });
  }

  async function request(req: TransportRequest): Promise<TransportResponse> {
    let refreshed = false;
    for (let n = 1; ; n++) {
      const a = await attempt(req);
      if (a.res.status === 401 && !refreshed) {
        refreshed = true;
        credentials.invalidate();
        continue;
      }
      const delay = policy
        ? retryDelay(policy, { method: req.method, status: a.res.status, retryAfter: a.retryAfter }, n)
        : undefined;
      if (delay === undefined) {
        if (a.error) throw a.error;
        return a.res;
      }
      await sleep(policy?.clock ?? systemClock, delay);
    }
  }

  return {
    request,
    stream: (req) =>
      new Promise((resolve, reject) => {
        const failed = (e: Error): void => (req.signal.aborted ? resolve({ status: 0, body: '' }) : reject(e));
        open(
          req,
          (res) => {
            const status = res.statusCode ?? 0;
            // A watch refused for its credentials makes the next one read them afresh.
            if (status === 401) credentials.invalidate();
            const lines = new LineBuffer();
            res.setEncoding('utf8');
            // Only a 200 carries watch events; any other answer is a Status body (newline-terminated from a
            // real API server), which must reach the caller as the error, not as an event without an object.
            res.on('data', (chunk: string) => (status === 200 ? lines.push(chunk, req.onLine) : (lines.rest += chunk)));
            res.on('end', () => resolve({ status, body: status === 200 ? '' : lines.rest }));
            res.on('error', () => resolve({ status, body: lines.rest }));
            res.on('aborted', () => resolve({ status, body: lines.rest }));
          },
          req.signal,
        ).then((r) => r.on('error', failed), failed);
      }),
  };
}

function header(res: http.IncomingMessage, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
