/** Raw HTTPS requests to a Kubernetes API server (the embedded one or the real one), as kubectl sends them. */
import { KubeConfig } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';

/** Where and how to reach one server. */
export interface Endpoint {
  name: string;
  url: string;
  caPem: string;
  token: string;
}

/** One request of a differential case. */
export interface Req {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  contentType?: string;
  accept?: string;
}

/** The answer: status code and the parsed JSON body (or the raw text when it is not JSON). */
export interface Res {
  status: number;
  body: unknown;
  text: string;
}

/** The endpoint of a kubeconfig with a bearer token and inline CA data (the control plane's). */
export function endpointFromKubeconfig(name: string, file: string): Endpoint {
  const kc = new KubeConfig();
  kc.loadFromString(readFileSync(file, 'utf8'));
  const cluster = kc.getCurrentCluster();
  const token = kc.getCurrentUser()?.token;
  if (!cluster?.caData || !token) throw new Error(`${file}: expected inline CA data and a bearer token`);
  return { name, url: cluster.server, caPem: Buffer.from(cluster.caData, 'base64').toString(), token };
}

/** Sends one request; never throws for an HTTP error status. */
export function send(ep: Endpoint, r: Req): Promise<Res> {
  const body = r.body === undefined ? undefined : typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
  const u = new URL(r.path, ep.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: r.method,
        ca: ep.caPem,
        headers: {
          authorization: `Bearer ${ep.token}`,
          accept: r.accept ?? 'application/json',
          'user-agent': 'tenon-differential',
          ...(body === undefined
            ? {}
            : { 'content-type': r.contentType ?? 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: compared as text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
