import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../apiserver/index.js';
import { FakeClock } from '../clock/index.js';
import { KubeClient } from './client.js';
import { LeaderElector, type Lease } from './leader-election.js';
import { Resources, type ResourceType } from './resources.js';
import { transportFromKubeConfig, type Transport } from './transport.js';

const leases: ResourceType<Lease> = Resources.leases;

/** A replica's connection to the API server, which the test can cut (an API blip or a partition). */
interface Link {
  client: KubeClient;
  down: boolean;
}

/** A cluster of replicas on one fake clock; `run` moves time in small steps and lets each request finish. */
class World {
  readonly clock = new FakeClock(Date.UTC(2026, 0, 1));
  private inFlight = 0;
  private server: ApiServer | undefined;
  private transport: Transport | undefined;

  async start(): Promise<void> {
    this.server = await startApiServer({ clock: this.clock, crds: [] });
    const kc = new KubeConfig();
    kc.loadFromString(this.server.kubeConfigYaml);
    this.transport = await transportFromKubeConfig(kc);
  }

  link(): Link {
    const inner = this.transport;
    if (!inner) throw new Error('world not started');
    const link: Link = { client: new KubeClient(inner), down: false };
    const transport: Transport = {
      request: async (req) => {
        if (link.down) throw new Error('connect ECONNREFUSED');
        this.inFlight++;
        try {
          return await inner.request(req);
        } finally {
          this.inFlight--;
        }
      },
      stream: (req) => inner.stream(req),
    };
    link.client = new KubeClient(transport);
    return link;
  }

  elector(link: Link, identity: string): LeaderElector {
    return new LeaderElector({
      client: link.client,
      clock: this.clock,
      namespace: 'kube-system',
      name: 'tenon-leader-election',
      identity,
    });
  }

  /** Moves the clock `ms` forward in 100 ms steps, letting every request started in a step complete. */
  async run(ms: number, each?: () => void): Promise<void> {
    for (let t = 0; t < ms; t += 100) {
      await this.settle();
      this.clock.advance(100);
      await this.settle();
      each?.();
    }
  }

  async settle(): Promise<void> {
    for (let i = 0; i < 5 || this.inFlight > 0; i++) await new Promise((r) => setImmediate(r));
  }

  async lease(): Promise<Lease> {
    return new KubeClient(this.transport as Transport).get(leases, {
      name: 'tenon-leader-election',
      namespace: 'kube-system',
    });
  }

  async close(): Promise<void> {
    await this.server?.close();
  }
}

let world: World;
afterEach(async () => {
  await world.close();
});

async function newWorld(): Promise<World> {
  world = new World();
  await world.start();
  return world;
}

describe('leader election', () => {
  it('elects one leader; a standby takes over within the lease duration after the leader is cut off, and the old leader stops first', async () => {
    const w = await newWorld();
    const a = w.link();
    const leaderA = w.elector(a, 'a');
    const leaderB = w.elector(w.link(), 'b');
    expect(await leaderA.acquire()).toBe(true);
    const aRenewing = leaderA.renewUntilLost();
    let bWon = false;
    void leaderB.acquire().then((ok) => (bWon = ok));
    await w.run(30_000);
    expect(leaderA.leading()).toBe(true);
    expect(bWon).toBe(false);

    a.down = true;
    const cutAt = w.clock.now();
    let aStoppedAt: number | undefined;
    let bWonAt: number | undefined;
    await w.run(20_000, () => {
      if (aStoppedAt === undefined && !leaderA.leading()) aStoppedAt = w.clock.now();
      if (bWonAt === undefined && bWon) bWonAt = w.clock.now();
    });
    expect(await aRenewing).toBe('lost');
    // A stops acting within the renew deadline; B takes over after a lease duration of seeing no renew, which it
    // notices on its 2 s polls: at most one period to see A's last renew and one to try after the 15 s.
    expect((aStoppedAt ?? Infinity) - cutAt).toBeLessThanOrEqual(10_000);
    expect((bWonAt ?? Infinity) - cutAt).toBeGreaterThanOrEqual(15_000 - 2_000);
    expect((bWonAt ?? Infinity) - cutAt).toBeLessThanOrEqual(15_000 + 2 * 2_000);
    expect(bWonAt ?? 0).toBeGreaterThan(aStoppedAt ?? Infinity);
    const lease = await w.lease();
    expect(lease.spec?.holderIdentity).toBe('b');
    expect(lease.spec?.leaseTransitions).toBe(1);
    await leaderB.release();
  });

  it('survives an API blip shorter than the renew deadline', async () => {
    const w = await newWorld();
    const a = w.link();
    const leaderA = w.elector(a, 'a');
    const leaderB = w.elector(w.link(), 'b');
    expect(await leaderA.acquire()).toBe(true);
    let lost = false;
    void leaderA.renewUntilLost().then((end) => (lost = end === 'lost'));
    let bWon = false;
    void leaderB.acquire().then((ok) => (bWon = ok));
    await w.run(3_000);
    a.down = true;
    await w.run(7_000);
    a.down = false;
    await w.run(30_000);
    expect(lost).toBe(false);
    expect(leaderA.leading()).toBe(true);
    expect(bWon).toBe(false);
    await leaderA.release();
    await leaderB.release();
  });

  it("trusts its own observation time, not the holder's renewTime", async () => {
    const w = await newWorld();
    const link = w.link();
    // A holder whose clock runs an hour behind wrote this renewTime a moment ago.
    const hourAgo = new Date(w.clock.now() - 3_600_000).toISOString().replace('Z', '000Z');
    await link.client.create(leases, {
      metadata: { name: 'tenon-leader-election', namespace: 'kube-system' },
      spec: {
        holderIdentity: 'skewed',
        leaseDurationSeconds: 15,
        renewTime: hourAgo,
        acquireTime: hourAgo,
        leaseTransitions: 3,
      },
    });
    const elector = w.elector(link, 'b');
    let wonAt: number | undefined;
    const start = w.clock.now();
    void elector.acquire().then((ok) => (wonAt = ok ? w.clock.now() : undefined));
    await w.run(20_000);
    expect(wonAt).toBeDefined();
    expect((wonAt ?? 0) - start).toBeGreaterThanOrEqual(15_000);
    expect((await w.lease()).spec?.leaseTransitions).toBe(4);
    await elector.release();
  });

  it('hands the lease back on release so a standby takes over within one retry period', async () => {
    const w = await newWorld();
    const leaderA = w.elector(w.link(), 'a');
    const leaderB = w.elector(w.link(), 'b');
    expect(await leaderA.acquire()).toBe(true);
    let bWonAt: number | undefined;
    void leaderB.acquire().then((ok) => (bWonAt = ok ? w.clock.now() : undefined));
    await w.run(4_000);
    await leaderA.release();
    expect(leaderA.leading()).toBe(false);
    const releasedAt = w.clock.now();
    expect((await w.lease()).spec?.holderIdentity).toBe('');
    await w.run(3_000);
    expect((bWonAt ?? Infinity) - releasedAt).toBeLessThanOrEqual(2_000);
    await leaderB.release();
  });
});
