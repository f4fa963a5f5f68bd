import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { startApiServer } from '../apiserver/index.js';
import { KubeClient, transportFromKubeConfig } from '../kube/index.js';
import { coreApis, readinessCheck } from './readiness.js';

async function clientFor(crds: 'none' | 'default'): Promise<{ client: KubeClient; close: () => Promise<void> }> {
  const server = await startApiServer(crds === 'none' ? { crds: [] } : {});
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  return { client: new KubeClient(await transportFromKubeConfig(kc)), close: () => server.close() };
}

describe('readiness', () => {
  it('is not ready while the CRDs are missing, naming them', async () => {
    const { client, close } = await clientFor('none');
    try {
      const ready = readinessCheck({ client, synced: () => true, apis: coreApis });
      expect(await ready()).toBe('CRDs not installed: nodepools.karpenter.sh, nodeclaims.karpenter.sh');
    } finally {
      await close();
    }
  });

  it('is ready once the informers synced, whether or not this replica leads', async () => {
    const { client, close } = await clientFor('default');
    try {
      let synced = false;
      const ready = readinessCheck({
        client,
        synced: () => synced,
        apis: [...coreApis, { groupVersion: 'karpenter.k8s.aws/v1', resources: ['ec2nodeclasses'] }],
      });
      expect(await ready()).toBe('informers not synced');
      synced = true;
      expect(await ready()).toBeUndefined();
    } finally {
      await close();
    }
  });
});
