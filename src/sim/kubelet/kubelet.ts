/**
 * One simulated kubelet on one machine: boots after a delay, reads the machine's userData with the kubelet's
 * real view, registers its Node (or never joins when the boot fails), renews its Lease in kube-node-lease,
 * posts its conditions (Ready after the runtime comes up), registers its CSINode, and runs its pods.
 * Its device plugins advertise the machine's extended resources a while after it is Ready. Like the real
 * kubelet it retries registration after API errors for as long as it runs, and posts a status the API server
 * refused again at its next heartbeat.
 * Faults: stop (no more heartbeats or pod work; S5), slow start, never ready, memory pressure.
 */
import { rfc3339 } from '../../clock/index.js';
import { isAlreadyExists, isNotFound, type Lease, type Node, type Pod } from '../../kube/index.js';
import { effectiveKubeletConfig, type EffectiveKubeletConfig } from '../../providers/aws/bootstrap/index.js';
import type { Machine } from '../machines/machine.js';
import type { AgentContext } from '../world/agent.js';
import { SimResources } from '../world/resources.js';
import { csiNodeFor } from './csi-node.js';
import { microTime, nodeConditions, type NodeHealth } from './node-status.js';
import { PodWorkers } from './pods.js';
import { registrationNode } from './registration.js';
import type { KubeletTimings } from './timings.js';

/** Where a kubelet is in its life. */
export type KubeletPhase = 'booting' | 'failed' | 'registered' | 'stopped' | 'off';

/** Faults that shape a kubelet from its boot on. */
export interface BootFaults {
  extraBootMs?: number;
  neverReady?: boolean;
}

/** Construction input of a kubelet. */
export interface KubeletInput {
  ctx: AgentContext;
  machine: Machine;
  timings: KubeletTimings;
  faults: BootFaults;
  volumesReady: (pod: Pod, node: string) => boolean;
}

/** The lease namespace. */
export const NodeLeaseNamespace = 'kube-node-lease';

/** A simulated kubelet. */
export class Kubelet {
  phase: KubeletPhase = 'booting';
  /** What the kubelet read from its userData (after boot). */
  config: EffectiveKubeletConfig | undefined;
  readonly pods: PodWorkers;
  private readonly health: NodeHealth = { ready: false, memoryPressure: false };
  private readonly timers = new Set<() => void>();
  private lastStatusPost = 0;
  /** A status post failed: the next heartbeat posts again whatever the report interval says. */
  private statusUnsent = false;
  private csiNodeRegistered = false;
  /** Its Node exists (registration went through, even if the kubelet was stopped right after). */
  private registered = false;
  /** Extended resources the device plugins have registered (posted with every status). */
  private devices: Record<string, string> | undefined;

  /** Creates the kubelet; call boot(). */
  constructor(private readonly input: KubeletInput) {
    const { ctx, timings } = input;
    this.pods = new PodWorkers({
      client: ctx.client,
      clock: ctx.clock,
      rng: ctx.rng,
      timings,
      node: () => this.node(),
      volumesReady: (pod) => input.volumesReady(pod, this.nodeName),
      onError: (e) => ctx.onError?.(`kubelet ${this.nodeName}`, e),
    });
  }

  /** The Node name it registers. */
  get nodeName(): string {
    return this.input.machine.nodeName;
  }

  /** The machine it runs on. */
  get machine(): Machine {
    return this.input.machine;
  }

  /** Starts the boot sequence. */
  boot(): void {
    const { ctx, timings, faults } = this.input;
    this.after(ctx.rng.between(timings.boot) + (faults.extraBootMs ?? 0), () =>
      this.tryRegister(timings.registerRetry.min),
    );
  }

  /** Registers, retrying after an API error with a delay that doubles up to the kubelet's 7 s. */
  private tryRegister(delay: number): void {
    const { ctx, timings } = this.input;
    this.register().catch((e: unknown) => {
      ctx.onError?.(`kubelet ${this.nodeName}`, e);
      if (this.phase !== 'booting') return;
      this.after(delay, () => this.tryRegister(Math.min(delay * 2, timings.registerRetry.max)));
    });
  }

  /** Kills the kubelet, booted or not: no registration, heartbeats, status or pod work until restart(). */
  stop(): void {
    if (this.phase === 'off' || this.phase === 'failed') return;
    this.phase = 'stopped';
    this.cancelAll();
    this.pods.stop();
  }

  /**
   * Restarts a stopped kubelet: one that had not registered registers now; one that had renews its lease, posts
   * status at once, and becomes Ready after its usual delay if it never was.
   */
  restart(): void {
    if (this.phase !== 'stopped') return;
    this.pods.resume();
    if (!this.registered) {
      this.phase = 'booting';
      this.tryRegister(this.input.timings.registerRetry.min);
      return;
    }
    this.phase = 'registered';
    this.heartbeatLoop();
    void this.postStatus(true);
    if (!this.health.ready) this.becomeReadyLater();
  }

  /** The machine powered off: everything stops for good. */
  powerOff(): void {
    this.stop();
    this.phase = 'off';
  }

  /** Turns memory pressure on or off (posted at once). */
  setMemoryPressure(on: boolean): void {
    this.health.memoryPressure = on;
    if (this.phase === 'registered') void this.postStatus(true);
  }

  /** The Node as the shared informer last saw it. */
  node(): Node | undefined {
    return this.input.ctx.informers.get<Node>(SimResources.nodes).cache.get(this.nodeName);
  }

  private after(ms: number, fn: () => void): void {
    const cancel = this.input.ctx.clock.setTimer(ms, () => {
      this.timers.delete(cancel);
      fn();
    });
    this.timers.add(cancel);
  }

  private cancelAll(): void {
    for (const c of this.timers) c();
    this.timers.clear();
  }

  private async register(): Promise<void> {
    const { ctx, machine } = this.input;
    this.config = effectiveKubeletConfig(machine.userData, machine.amiFamily, {
      vcpus: machine.vcpus,
      eniMaxPods: machine.eniMaxPods,
    });
    if (!this.config.joins) {
      this.phase = 'failed';
      return;
    }
    const now = rfc3339(ctx.clock.now());
    const node = registrationNode(machine, this.config, now);
    try {
      await ctx.client.create(SimResources.nodes, node);
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
    // Some servers drop status on create; the kubelet posts it through the status subresource anyway.
    await ctx.client.patch(
      SimResources.nodes,
      { name: this.nodeName },
      { status: node.status },
      { subresource: 'status' },
    );
    this.lastStatusPost = ctx.clock.now();
    this.registered = true;
    // Stopped while registering: restart() carries on from here.
    if (this.phase !== 'booting') return;
    this.phase = 'registered';
    await this.ensureCsiNode();
    this.heartbeatLoop();
    this.becomeReadyLater();
  }

  /** Ready after the kubelet's start-up delay (never, with the neverReady fault). */
  private becomeReadyLater(): void {
    const { ctx, timings, faults } = this.input;
    if (faults.neverReady) return;
    this.after(ctx.rng.between(timings.ready), () => {
      this.health.ready = true;
      void this.postStatus(true);
      this.startDevicePlugins();
    });
  }

  /** The device plugins start once the node is Ready and register the machine's extended resources. */
  private startDevicePlugins(): void {
    const devices = this.input.machine.devices;
    if (!devices) return;
    this.after(this.input.ctx.rng.between(this.input.timings.devicePlugin), () => {
      this.devices = { ...devices };
      void this.postStatus(true);
    });
  }

  private async ensureCsiNode(): Promise<void> {
    if (this.csiNodeRegistered) return;
    try {
      await this.input.ctx.client.create(SimResources.csiNodes, csiNodeFor(this.input.machine, this.node()));
      this.csiNodeRegistered = true;
    } catch (e) {
      if (isAlreadyExists(e)) this.csiNodeRegistered = true;
      // Otherwise the next heartbeat tries again.
      else this.input.ctx.onError?.(`kubelet ${this.nodeName}`, e);
    }
  }

  /** Renews the lease on a grid of the renew interval (so all kubelets beat together and time jumps less). */
  private heartbeatLoop(): void {
    const { clock } = this.input.ctx;
    const every = this.input.timings.leaseRenewMs;
    const beat = (): void => {
      if (this.input.timings.nodeLease) void this.renewLease();
      void this.ensureCsiNode();
      if (this.statusUnsent || clock.now() - this.lastStatusPost >= this.input.timings.statusReportMs)
        void this.postStatus(false);
      this.after(every - (clock.now() % every), beat);
    };
    beat();
  }

  private async renewLease(): Promise<void> {
    const { client, clock } = this.input.ctx;
    const node = this.node();
    const lease: Lease = {
      metadata: {
        name: this.nodeName,
        namespace: NodeLeaseNamespace,
        ...(node?.metadata.uid
          ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.nodeName, uid: node.metadata.uid }] }
          : {}),
      },
      spec: {
        holderIdentity: this.nodeName,
        leaseDurationSeconds: this.input.timings.leaseDurationSeconds,
        renewTime: microTime(clock.now()),
      },
    };
    try {
      await client.patch(
        SimResources.leases,
        { name: this.nodeName, namespace: NodeLeaseNamespace },
        { spec: lease.spec },
      );
    } catch (e) {
      if (!isNotFound(e)) return this.input.ctx.onError?.(`kubelet ${this.nodeName}`, e);
      await client.create(SimResources.leases, lease).catch((err: unknown) => {
        if (!isAlreadyExists(err)) this.input.ctx.onError?.(`kubelet ${this.nodeName}`, err);
      });
    }
  }

  private async postStatus(changed: boolean): Promise<void> {
    const { client, clock } = this.input.ctx;
    if (!changed && !this.statusUnsent && clock.now() - this.lastStatusPost < this.input.timings.statusReportMs) return;
    this.lastStatusPost = clock.now();
    const conditions = nodeConditions(this.health, this.node()?.status?.conditions ?? [], rfc3339(clock.now()));
    // Registered device resources are merged into capacity and allocatable (the kubelet's device manager).
    const devices = this.devices ? { capacity: this.devices, allocatable: this.devices } : {};
    try {
      await client.patch(
        SimResources.nodes,
        { name: this.nodeName },
        { status: { conditions, ...devices } },
        { subresource: 'status' },
      );
      this.statusUnsent = false;
    } catch (e) {
      this.statusUnsent = !isNotFound(e);
      if (this.statusUnsent) this.input.ctx.onError?.(`kubelet ${this.nodeName}`, e);
    }
  }
}
