import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

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

/** A keep-alive HTTP(S) transport that takes server, TLS and credentials from a client-node KubeConfig. */
export async function transportFromKubeConfig(kc: KubeConfig): Promise<Transport> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const server = new URL(cluster.server);
  const opts: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  const secure = server.protocol === 'https:';
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: 128, ca: opts.ca, cert: opts.cert, key: opts.key, rejectUnauthorized: opts.rejectUnauthorized })
    : new http.Agent({ keepAlive: true, maxSockets: 128 });
  const lib = secure ? https : http;
  const baseHeaders = { ...(opts.headers as Record<string, string> | undefined) };

  function open(req: TransportRequest, onResponse: (res: http.IncomingMessage) => void, signal?: AbortSignal): http.ClientRequest {
    const payload = req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    const headers: Record<string, string> = { ...baseHeaders, accept: 'application/json' };
    if (payload !== undefined) {
      headers['content-type'] = req.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const r = lib.request(
      { protocol: server.protocol, hostname: server.hostname, port: server.port, method: req.method, path: withQuery(req.path, req.query), headers, agent, signal },
      onResponse,
    );
    if (payload !== undefined) r.write(payload);
    r.end();
    return r;
  }

  return {
    request: (req) =>
      new Promise((resolve, reject) => {
        open(req, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        }).on('error', reject);
      }),
    stream: (req) =>
      new Promise((resolve, reject) => {
        open(
          req,
          (res) => {
            const status = res.statusCode ?? 0;
            const lines = new LineBuffer();
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => lines.push(chunk, req.onLine));
            res.on('end', () => resolve({ status, body: status === 200 ? '' : lines.rest }));
            res.on('error', () => resolve({ status, body: lines.rest }));
            res.on('aborted', () => resolve({ status, body: lines.rest }));
          },
          req.signal,
        ).on('error', (e: Error) => (req.signal.aborted ? resolve({ status: 0, body: '' }) : reject(e)));
      }),
  };
}
