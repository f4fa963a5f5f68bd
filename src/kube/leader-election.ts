import { rfc3339, type Clock } from '../clock/index.js';
import type { KubeClient } from './client.js';
import { isAlreadyExists, isConflict, isNotFound } from './errors.js';
import { Resources, type KubeObject } from './resources.js';

/** A coordination.k8s.io/v1 Lease. */
export interface Lease extends KubeObject {
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

/** Options of leader election. */
export interface LeaderElectionOptions {
  client: KubeClient;
  clock: Clock;
  namespace: string;
  name: string;
  identity: string;
  leaseDurationSeconds?: number;
}

/**
 * Lease-based leader election (as client-go's): one attempt to acquire or renew the Lease. A Lease held by
 * someone else is taken only after its renewTime + duration has passed on our clock. Returns true while we lead.
 */
export async function tryAcquireOrRenew(o: LeaderElectionOptions): Promise<boolean> {
  const now = o.clock.now();
  const duration = o.leaseDurationSeconds ?? 15;
  const ref = { name: o.name, namespace: o.namespace };
  let lease: Lease;
  try {
    lease = await o.client.get<Lease>(Resources.leases, ref);
  } catch (e) {
    if (!isNotFound(e)) throw e;
    return createLease(o, duration);
  }
  const spec = lease.spec ?? {};
  const held = spec.holderIdentity && spec.holderIdentity !== o.identity;
  const renewed = spec.renewTime ? Date.parse(spec.renewTime) : 0;
  if (held && renewed + (spec.leaseDurationSeconds ?? duration) * 1000 > now) return false;
  const next: Lease = { ...lease, spec: renewedSpec({ spec, identity: o.identity, duration, now, takeover: Boolean(held) }) };
  try {
    await o.client.update(Resources.leases, next);
    return true;
  } catch (e) {
    if (isConflict(e)) return false;
    throw e;
  }
}

function renewedSpec(p: { spec: NonNullable<Lease['spec']>; identity: string; duration: number; now: number; takeover: boolean }): Lease['spec'] {
  return {
    ...p.spec,
    holderIdentity: p.identity,
    leaseDurationSeconds: p.duration,
    renewTime: microTime(p.now),
    acquireTime: p.takeover || !p.spec.acquireTime ? microTime(p.now) : p.spec.acquireTime,
    leaseTransitions: (p.spec.leaseTransitions ?? 0) + (p.takeover ? 1 : 0),
  };
}

async function createLease(o: LeaderElectionOptions, duration: number): Promise<boolean> {
  const now = microTime(o.clock.now());
  const lease: Lease = {
    metadata: { name: o.name, namespace: o.namespace },
    spec: { holderIdentity: o.identity, leaseDurationSeconds: duration, acquireTime: now, renewTime: now, leaseTransitions: 0 },
  };
  try {
    await o.client.create(Resources.leases, lease);
    return true;
  } catch (e) {
    if (isAlreadyExists(e)) return false;
    throw e;
  }
}

function microTime(ms: number): string {
  return rfc3339(ms).replace('Z', '.000000Z');
}
