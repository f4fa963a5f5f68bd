/**
 * The kubelets of every running machine: one starts when a machine runs, powers off when it stops or
 * terminates. Pods are watched once for the whole fleet and handed to the kubelet of their node. The fleet
 * is also where faults are injected.
 */
import { keyOf, type Node, type Pod } from '../../kube/index.js';
import { isRunning, type Machine, type MachineSource } from '../machines/machine.js';
import type { Agent, AgentContext } from '../world/agent.js';
import { ByNode } from '../world/informers.js';
import { SimResources } from '../world/resources.js';
import { Kubelet, NodeLeaseNamespace, type BootFaults } from './kubelet.js';
import { defaultKubeletTimings, type KubeletTimings } from './timings.js';

/** Options of the fleet. */
export interface KubeletFleetOptions {
  machines: MachineSource;
  timings?: Partial<KubeletTimings>;
  /** Whether a pod's volumes are bound and attached on a node (from the volume agents; default: always). */
  volumesReady?: (pod: Pod, node: string) => boolean;
}

/** Selects machines by node name, providerID, or a predicate. */
export type MachineMatch = string | ((m: Machine) => boolean);

function matches(match: MachineMatch, m: Machine): boolean {
  return typeof match === 'string'
    ? m.nodeName === match || m.providerID === match || m.instanceId === match
    : match(m);
}

/** The kubelet fleet agent. */
export class KubeletFleet implements Agent {
  readonly name = 'kubelet-fleet';
  private readonly kubelets = new Map<string, Kubelet>();
  private readonly bootFaults: Array<{ match: MachineMatch; faults: BootFaults }> = [];
  private readonly timings: KubeletTimings;
  private unsubscribe: (() => void) | undefined;

  /** Creates the fleet. */
  constructor(
    private readonly ctx: AgentContext,
    private readonly opts: KubeletFleetOptions,
  ) {
    this.timings = { ...defaultKubeletTimings, ...opts.timings };
  }

  /** Watches machines and pods. */
  start(): void {
    void this.ctx.client
      .create(SimResources.namespaces, { metadata: { name: NodeLeaseNamespace } })
      .catch(() => undefined);
    this.ctx.informers.get<Pod>(SimResources.pods).on({
      add: (p) => this.kubeletOf(p)?.pods.sync(p),
      update: (_o, p) => this.kubeletOf(p)?.pods.sync(p),
      delete: (p) => this.kubeletOf(p)?.pods.forget(p),
    });
    // Pods bound before the kubelet saw its own Node are admitted once it does.
    this.ctx.informers.get<Node>(SimResources.nodes).on({ add: (n) => this.resync(n.metadata.name ?? '') });
    this.unsubscribe = this.opts.machines.subscribe(() => this.reconcileMachines());
    this.reconcileMachines();
  }

  /** Powers off every kubelet. */
  stop(): void {
    this.unsubscribe?.();
    for (const k of this.kubelets.values()) k.powerOff();
  }

  /** The kubelet registering (or registered as) `nodeName`. */
  kubelet(nodeName: string): Kubelet | undefined {
    return this.kubelets.get(nodeName);
  }

  /** Every kubelet. */
  list(): Kubelet[] {
    return [...this.kubelets.values()];
  }

  /** Fault: stops the matching kubelets (no heartbeats, no status; the node goes Unknown; S5). */
  stopKubelet(match: MachineMatch): void {
    for (const k of this.matching(match)) k.stop();
  }

  /** Restarts stopped kubelets. */
  restartKubelet(match: MachineMatch): void {
    for (const k of this.matching(match)) {
      k.restart();
      this.resync(k.nodeName);
    }
  }

  /** Fault: machines matching boot `extraMs` slower (applies to kubelets that have not booted yet). */
  slowStart(match: MachineMatch, extraMs: number): void {
    this.bootFaults.push({ match, faults: { extraBootMs: extraMs } });
  }

  /** Fault: matching machines register but never become Ready. */
  neverReady(match: MachineMatch): void {
    this.bootFaults.push({ match, faults: { neverReady: true } });
  }

  /** Fault: memory pressure on or off on matching kubelets. */
  memoryPressure(match: MachineMatch, on: boolean): void {
    for (const k of this.matching(match)) k.setMemoryPressure(on);
  }

  private matching(match: MachineMatch): Kubelet[] {
    return this.list().filter((k) => matches(match, k.machine));
  }

  private kubeletOf(p: Pod): Kubelet | undefined {
    return p.spec.nodeName ? this.kubelets.get(p.spec.nodeName) : undefined;
  }

  private resync(nodeName: string): void {
    const k = this.kubelets.get(nodeName);
    if (!k) return;
    const pods = this.ctx.informers.get<Pod>(SimResources.pods).cache.byIndex(ByNode, nodeName);
    for (const p of pods.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1))) k.pods.sync(p);
  }

  private reconcileMachines(): void {
    const machines = this.opts.machines.list();
    // Only the machines that need something are sorted (by providerID, for a deterministic order): this runs on
    // every machine change, and a scale-up has 5,000 machines.
    const due = machines.filter((m) => {
      const k = this.kubelets.get(m.nodeName);
      return isRunning(m) ? !k : k !== undefined && k.phase !== 'off' && m.state !== 'pending';
    });
    for (const m of due.sort((a, b) => (a.providerID < b.providerID ? -1 : 1))) {
      const k = this.kubelets.get(m.nodeName);
      if (!k) this.boot(m);
      else k.powerOff();
    }
    const live = new Set(machines.map((m) => m.nodeName));
    for (const [name, k] of this.kubelets) if (!live.has(name)) k.powerOff();
  }

  private boot(m: Machine): void {
    const faults = this.bootFaults
      .filter((f) => matches(f.match, m))
      .reduce<BootFaults>((acc, f) => ({ ...acc, ...f.faults }), {});
    const k = new Kubelet({
      ctx: { ...this.ctx, rng: this.ctx.rng.fork(m.providerID) },
      machine: m,
      timings: this.timings,
      faults,
      volumesReady: this.opts.volumesReady ?? (() => true),
    });
    this.kubelets.set(m.nodeName, k);
    k.boot();
  }
}
