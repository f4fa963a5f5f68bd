import { rfc3339, sleep, type Clock } from '../clock/index.js';
import type { KubeClient } from './client.js';
import { isAlreadyExists, isConflict, isNotFound } from './errors.js';
import { Resources, type KubeObject, type ResourceType } from './resources.js';

/** A coordination.k8s.io/v1 Lease. */
export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

/** The leader election record a Lease holds. */
export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

const leases: ResourceType<Lease> = Resources.leases;

/** client-go's timings (and controller-runtime's defaults): lease 15 s, renew deadline 10 s, retry every 2 s. */
export const leaderElectionDefaults = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
} as const;

/** Options of a LeaderElector. */
export interface LeaderElectorOptions {
  client: KubeClient;
  clock: Clock;
  namespace: string;
  name: string;
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Told of failed attempts (an API blip), which are retried every retry period. */
  onError?: (e: unknown) => void;
  /** Told when an attempt finds the Lease held by another holder whose lease has not expired (client-go's V(4) line). */
  onHeld?: (holder: string) => void;
  /** Told when an acquire or renew succeeded, with the time (this clock) its request was sent. */
  onRenewed?: (sentAt: number) => void;
}

/**
 * Lease-based leader election with client-go's rules. The elector keeps its own observation time: a Lease held by
 * someone else is taken only once its record has stayed unchanged for a lease duration on this elector's clock,
 * whatever the holder's clock wrote in renewTime. The leader renews every retry period and gives up only when no
 * renew succeeded for the renew deadline, so API blips shorter than that are survived.
 */
export class LeaderElector {
  private observed: { key: string; at: number } | undefined;
  /** When the last successful acquire or renew was sent, on our clock; undefined while not leading. */
  private renewedAt: number | undefined;
  private stopped = false;
  private readonly o: Required<Omit<LeaderElectorOptions, 'onError' | 'onRenewed' | 'onHeld'>> &
    Pick<LeaderElectorOptions, 'onError' | 'onRenewed' | 'onHeld'>;

  /** Creates an elector; nothing happens until `acquire`. */
  constructor(o: LeaderElectorOptions) {
    this.o = { ...leaderElectionDefaults, ...o };
  }

  /**
   * True while this elector may act as leader: the last renew was sent less than a renew deadline ago. Others
   * can take the Lease only a lease duration after they saw that renew, so the margin keeps two from writing.
   */
  leading(): boolean {
    return this.renewedAt !== undefined && this.o.clock.now() - this.renewedAt < this.o.renewDeadlineMs;
  }

  /** Tries every retry period until this elector holds the Lease (true) or is stopped (false). */
  async acquire(): Promise<boolean> {
    while (!this.stopped) {
      if (await this.attempt()) return true;
      await sleep(this.o.clock, this.o.retryPeriodMs);
    }
    return false;
  }

  /** Renews every retry period; resolves when leadership is lost (no renew within the deadline) or stopped. */
  async renewUntilLost(): Promise<'lost' | 'stopped'> {
    while (!this.stopped) {
      await sleep(this.o.clock, this.o.retryPeriodMs);
      if (this.stopped) break;
      if (!(await this.attemptWithinDeadline()) && !this.leading()) {
        this.renewedAt = undefined;
        return 'lost';
      }
    }
    return 'stopped';
  }

  /** An attempt that counts as failed once the renew deadline passes, even if its request still hangs. */
  private attemptWithinDeadline(): Promise<boolean> {
    const left = (this.renewedAt ?? 0) + this.o.renewDeadlineMs - this.o.clock.now();
    return new Promise((resolve) => {
      const cancel = this.o.clock.setTimer(Math.max(0, left), () => resolve(false));
      void this.attempt().then((ok) => {
        cancel();
        resolve(ok);
      });
    });
  }

  /** Stops acquiring and renewing and, if this elector holds the Lease, hands it back so a standby takes over at once. */
  async release(): Promise<void> {
    this.stopped = true;
    if (!this.leading()) return;
    this.renewedAt = undefined;
    const lease = await this.o.client.get<Lease>(leases, { name: this.o.name, namespace: this.o.namespace });
    if (lease.spec?.holderIdentity !== this.o.identity) return;
    // client-go's release: no holder, a one-second lease, the transitions count kept.
    const now = microTime(this.o.clock.now());
    const spec: LeaseSpec = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: lease.spec.leaseTransitions ?? 0,
    };
    await this.o.client.update(leases, { ...lease, spec });
  }

  /** One acquire-or-renew; an error counts as a failed attempt. */
  private async attempt(): Promise<boolean> {
    const sentAt = this.o.clock.now();
    try {
      if (!(await this.tryAcquireOrRenew(sentAt))) return false;
      this.renewedAt = sentAt;
      this.o.onRenewed?.(sentAt);
      return true;
    } catch (e: unknown) {
      this.o.onError?.(e);
      return false;
    }
  }

  private async tryAcquireOrRenew(now: number): Promise<boolean> {
    const ref = { name: this.o.name, namespace: this.o.namespace };
    let lease: Lease;
    try {
      lease = await this.o.client.get<Lease>(leases, ref);
    } catch (e: unknown) {
      if (!isNotFound(e)) throw e;
      return this.create(now);
    }
    const spec = lease.spec ?? {};
    if (this.heldByOther(spec, now)) {
      this.o.onHeld?.(spec.holderIdentity ?? '');
      return false;
    }
    const next = this.record(spec, now);
    try {
      const written = await this.o.client.update(leases, { ...lease, spec: next });
      this.observed = { key: JSON.stringify(written.spec ?? next), at: now };
      return true;
    } catch (e: unknown) {
      if (isConflict(e)) return false;
      throw e;
    }
  }

  /** Notes when the record last changed (our clock) and whether another holder's lease is still running. */
  private heldByOther(spec: LeaseSpec, now: number): boolean {
    const key = JSON.stringify(spec);
    if (this.observed?.key !== key) this.observed = { key, at: now };
    const holder = spec.holderIdentity ?? '';
    const durationMs = (spec.leaseDurationSeconds ?? this.o.leaseDurationMs / 1000) * 1000;
    return holder !== '' && holder !== this.o.identity && this.observed.at + durationMs > now;
  }

  /** The record this elector writes: acquire time and transitions kept on a renew, moved on a takeover. */
  private record(spec: LeaseSpec, now: number): LeaseSpec {
    const mine = spec.holderIdentity === this.o.identity;
    return {
      holderIdentity: this.o.identity,
      leaseDurationSeconds: Math.round(this.o.leaseDurationMs / 1000),
      acquireTime: mine && spec.acquireTime ? spec.acquireTime : microTime(now),
      renewTime: microTime(now),
      leaseTransitions: (spec.leaseTransitions ?? 0) + (mine ? 0 : 1),
    };
  }

  private async create(now: number): Promise<boolean> {
    const at = microTime(now);
    const spec: LeaseSpec = {
      holderIdentity: this.o.identity,
      leaseDurationSeconds: Math.round(this.o.leaseDurationMs / 1000),
      acquireTime: at,
      renewTime: at,
      leaseTransitions: 0,
    };
    try {
      const written = await this.o.client.create(leases, {
        metadata: { name: this.o.name, namespace: this.o.namespace },
        spec,
      });
      this.observed = { key: JSON.stringify(written.spec ?? spec), at: now };
      return true;
    } catch (e: unknown) {
      if (isAlreadyExists(e)) return false;
      throw e;
    }
  }
}

/** A Lease's MicroTime text. */
function microTime(ms: number): string {
  return rfc3339(ms).replace('Z', '.000000Z');
}
