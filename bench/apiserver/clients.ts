/** The benchmark's clients of the API server: client-node as shipped, client-node on one keep-alive agent, raw lists. */
import https from 'node:https';
import * as k8s from '@kubernetes/client-node';

/**
 * client-node's CoreV1Api on one keep-alive HTTPS agent. client-node 1.4 builds a new agent (so a new TCP
 * connection and a full TLS handshake) for every request; this passes its own authentication method, which
 * applies the kubeconfig's credentials and then the shared agent — client-node's public configuration API.
 */
export function keepAliveCoreApi(kc: k8s.KubeConfig): k8s.CoreV1Api {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const ca = cluster.caData ? Buffer.from(cluster.caData, 'base64') : undefined;
  const agent = new https.Agent({ keepAlive: true, maxSockets: 64, ca });
  const auth: k8s.SecurityAuthentication = {
    getName: () => 'kubeconfig-keep-alive',
    applySecurityAuthentication: async (context) => {
      await kc.applySecurityAuthentication(context);
      context.setAgent(agent);
    },
  };
  const config = k8s.createConfiguration({
    baseServer: new k8s.ServerConfiguration(cluster.server, {}),
    authMethods: { default: auth },
  });
  return new k8s.CoreV1Api(config);
}

/** What a timed list received. */
export interface ListTiming {
  /** From sending the request to the last byte of the body. */
  lastByteMs: number;
  /** The same, plus joining the body into one string as a client must before parsing it. */
  bufferedMs: number;
  bytes: number;
}

/** GETs a path over a fresh keep-alive connection and times it: to the last byte, then buffered into text. */
export function timeRawGet(kc: k8s.KubeConfig, path: string): Promise<ListTiming> {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  if (!cluster || !user?.token) return Promise.reject(new Error('kubeconfig needs a cluster and a token'));
  const url = new URL(path, cluster.server);
  const ca = cluster.caData ? Buffer.from(cluster.caData, 'base64') : undefined;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = https.get(
      url,
      { ca, headers: { authorization: `Bearer ${user.token}`, accept: 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const lastByteMs = performance.now() - t0;
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`GET ${path}: ${res.statusCode}`));
          else resolve({ lastByteMs, bufferedMs: performance.now() - t0, bytes: text.length });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}
