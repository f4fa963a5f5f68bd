import type { KubeClient } from '../kube/index.js';
import type { ReadinessCheck } from '../observability/health-server.js';

/** A served API group version and the resources (plurals) it must list. */
export interface RequiredApi {
  groupVersion: string;
  resources: string[];
}

/** The CRDs every Tenon needs; providers add their own (the AWS provider: ec2nodeclasses). */
export const coreApis: RequiredApi[] = [{ groupVersion: 'karpenter.sh/v1', resources: ['nodepools', 'nodeclaims'] }];

/**
 * Readiness as Karpenter's: informers synced and the CRDs served, whether or not this replica leads, so a standby
 * replica is Ready and a rollout does not stall on it.
 */
export function readinessCheck(o: { client: KubeClient; synced: () => boolean; apis: RequiredApi[] }): ReadinessCheck {
  return async () => {
    for (const api of o.apis) {
      const served = await o.client
        .call<{ resources?: Array<{ name: string }> }>(`discover ${api.groupVersion}`, {
          method: 'GET',
          path: `/apis/${api.groupVersion}`,
        })
        .then(
          (l) => new Set((l.resources ?? []).map((r) => r.name)),
          () => new Set<string>(),
        );
      const missing = api.resources.filter((r) => !served.has(r));
      if (missing.length)
        return `CRDs not installed: ${missing.map((r) => `${r}.${api.groupVersion.split('/')[0]}`).join(', ')}`;
    }
    return o.synced() ? undefined : 'informers not synced';
  };
}
