import { hostname } from 'node:os';
import { sleep, type Clock } from '../clock/index.js';
import { tryAcquireOrRenew, type KubeClient } from '../kube/index.js';
import type { Logger } from '../observability/logger.js';

/** Karpenter's lease name; one leader per cluster runs the controllers. */
export const leaseName = 'karpenter-leader-election';

/** Waits until this process holds the lease, then renews it in the background; `onLost` runs if it is lost. */
export async function acquireLeadership(o: { client: KubeClient; clock: Clock; namespace: string; log: Logger; onLost: () => void }): Promise<() => void> {
  const identity = `${hostname()}_${process.pid}`;
  const opts = { client: o.client, clock: o.clock, namespace: o.namespace, name: leaseName, identity };
  while (!(await tryAcquireOrRenew(opts).catch(() => false))) await sleep(o.clock, 2000);
  o.log.info({ lease: `${o.namespace}/${leaseName}`, identity }, 'acquired leadership');
  let stopped = false;
  const renew = async (): Promise<void> => {
    while (!stopped) {
      await sleep(o.clock, 5000);
      if (stopped) return;
      if (!(await tryAcquireOrRenew(opts).catch(() => false))) {
        o.log.error({ lease: leaseName }, 'lost leadership');
        o.onLost();
        return;
      }
    }
  };
  void renew();
  return () => {
    stopped = true;
  };
}
