/** The kubeconfig a client needs: server URL, CA data and the bearer token. */
import YAML from 'yaml';

/** Builds kubeconfig YAML for the server (context and user named `tenon`). */
export function kubeConfigYaml(opts: { url: string; caPem: string; token: string }): string {
  return YAML.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'tenon',
        cluster: { server: opts.url, 'certificate-authority-data': Buffer.from(opts.caPem).toString('base64') },
      },
    ],
    users: [{ name: 'tenon', user: { token: opts.token } }],
    contexts: [{ name: 'tenon', context: { cluster: 'tenon', user: 'tenon', namespace: 'default' } }],
    'current-context': 'tenon',
    preferences: {},
  });
}
