import http from 'node:http';
import https from 'node:https';
import { createSecureContext } from 'node:tls';
import { KubeConfig } from '@kubernetes/client-node';

/** What one request carries to the API server: its headers and the agent holding the TLS material. */
export interface RequestCredentials {
  headers: Record<string, string>;
  agent: http.Agent;
}

/** The TLS material of one request, which decides whether the pooled agent can be kept. */
interface TlsMaterial {
  ca?: unknown;
  cert?: unknown;
  key?: unknown;
  rejectUnauthorized?: boolean;
  servername?: string;
}

function fingerprint(t: TlsMaterial): string {
  const text = (v: unknown): string => (Buffer.isBuffer(v) ? v.toString('base64') : v === undefined ? '' : String(v));
  return [text(t.ca), text(t.cert), text(t.key), String(t.rejectUnauthorized), t.servername ?? ''].join('|');
}

/** A copy of a KubeConfig with authenticators of its own, so their cached tokens start empty. */
function freshCopy(kc: KubeConfig): KubeConfig {
  const copy = new KubeConfig();
  copy.loadFromOptions({
    clusters: kc.clusters,
    users: kc.users,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
  });
  return copy;
}

/**
 * Credentials read from a client-node KubeConfig for every request, as client-go's transport does: a projected
 * ServiceAccount token file is re-read (client-node re-reads it each minute), an exec plugin runs again when its
 * token expires, and `caFile` is read as well as `caData`. The keep-alive agent is kept while the TLS material
 * is unchanged and replaced when it changes (a rotated client certificate or CA).
 */
export class KubeCredentials {
  private kc: KubeConfig;
  private readonly secure: boolean;
  private agent: { key: string; agent: http.Agent } | undefined;
  /** Concurrent requests share one read, so an expired exec token runs the plugin once, not once per request. */
  private pending: Promise<RequestCredentials> | undefined;

  /** Reads from `kc` (its current context). */
  constructor(private readonly source: KubeConfig) {
    const cluster = source.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    this.secure = new URL(cluster.server).protocol === 'https:';
    this.kc = freshCopy(source);
  }

  /** The credentials for the next request. */
  current(): Promise<RequestCredentials> {
    this.pending ??= this.read().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forgets every cached token (after a 401), so the next request reads the token file or runs the plugin again. */
  invalidate(): void {
    this.kc = freshCopy(this.source);
  }

  private async read(): Promise<RequestCredentials> {
    const opts: https.RequestOptions = {};
    // client-node also builds an agent here; it is left unused (no socket) in favour of the pooled one.
    await this.kc.applyToHTTPSOptions(opts);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k] = String(v);
    if (opts.auth) headers.authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    return { headers, agent: this.agentFor(opts) };
  }

  private agentFor(t: TlsMaterial): http.Agent {
    const key = fingerprint(t);
    if (this.agent?.key === key) return this.agent.agent;
    const agent = this.secure
      ? new https.Agent({
          keepAlive: true,
          maxSockets: 128,
          // One TLS context for every socket of the pool: a burst that opens many connections at once parses the
          // CA and key once, not once per connection.
          secureContext: createSecureContext({
            ca: t.ca as string | Buffer | undefined,
            cert: t.cert as string | Buffer | undefined,
            key: t.key as string | Buffer | undefined,
          }),
          rejectUnauthorized: t.rejectUnauthorized,
          servername: t.servername,
        })
      : new http.Agent({ keepAlive: true, maxSockets: 128 });
    // The old agent is dropped, not destroyed: destroying would also cut the watches still streaming on it.
    this.agent = { key, agent };
    return agent;
  }
}

/** The cluster CA as base64 PEM, from `caData` or else the `caFile` (in-cluster: the mounted ServiceAccount CA). */
export async function clusterCaData(
  kc: KubeConfig,
  readFile: (path: string) => Promise<Buffer>,
): Promise<string | undefined> {
  const cluster = kc.getCurrentCluster();
  if (cluster?.caData) return cluster.caData;
  if (cluster?.caFile) return (await readFile(cluster.caFile)).toString('base64');
  return undefined;
}
