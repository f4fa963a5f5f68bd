/** Loading the kubeconfig a command names with --kubeconfig, or the default one, as a usage error when unreadable. */
import { KubeConfig } from '@kubernetes/client-node';
import { UsageError } from '../usage-error.js';

/** `file`, else $KUBECONFIG, ~/.kube/config or the in-cluster config (client-node's default order). */
export function loadKubeConfig(file: string | undefined): KubeConfig {
  const kc = new KubeConfig();
  try {
    if (file) kc.loadFromFile(file);
    else kc.loadFromDefault();
  } catch (e: unknown) {
    throw new UsageError(
      `--kubeconfig: cannot read ${file ?? 'the default kubeconfig'}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  return kc;
}
