/**
 * The simulated cloud controller manager. Its node controller initializes a registered Node a short random
 * time after it appears: fills in the provider labels the kubelet left out and removes
 * `node.cloudprovider.kubernetes.io/uninitialized` — racing the autoscaler's own registration writes (S1);
 * every write is conditional on the resourceVersion it read. Its node lifecycle controller deletes Nodes that
 * are not Ready and whose instance is gone, and taints those whose instance is shutting down.
 */
import { EphemeralTaintKeys, Labels, type Taint } from '../../api/index.js';
import { isNotFound, updateWithRetry, type Node } from '../../kube/index.js';
import { isGone, type Machine, type MachineSource } from '../machines/machine.js';
import type { Agent, AgentContext } from '../world/agent.js';
import type { Range } from '../kubelet/timings.js';
import { SimResources } from '../world/resources.js';

/** The taint the CCM puts on nodes whose instance is shut down. */
export const ShutdownTaint: Taint = { key: 'node.cloudprovider.kubernetes.io/shutdown', effect: 'NoSchedule' };

/** Options of the CCM. */
export interface CcmOptions {
  machines: MachineSource;
  /** Delay between a Node appearing and its initialization (default 0.5–5 s). */
  initDelay?: Range;
  /** How often Nodes are checked against their instances (default 5 s). */
  monitorPeriodMs?: number;
}

function providerLabels(m: Machine): Record<string, string> {
  return { [Labels.instanceType]: m.instanceType, [Labels.zone]: m.zone, [Labels.region]: m.region };
}

function initialized(fresh: Node, m: Machine): Node | undefined {
  const taints = fresh.spec?.taints ?? [];
  if (!taints.some((t) => t.key === EphemeralTaintKeys.cloudProviderUninitialized)) return undefined;
  const labels = { ...providerLabels(m), ...fresh.metadata.labels };
  return {
    ...fresh,
    metadata: { ...fresh.metadata, labels },
    spec: {
      ...fresh.spec,
      providerID: fresh.spec?.providerID ?? m.providerID,
      taints: taints.filter((t) => t.key !== EphemeralTaintKeys.cloudProviderUninitialized),
    },
  };
}

/** The CCM agent. */
export class CloudControllerManager implements Agent {
  readonly name = 'cloud-controller-manager';
  private readonly pending = new Map<string, () => void>();
  private cancelMonitor: (() => void) | undefined;

  /** Creates the CCM. */
  constructor(
    private readonly ctx: AgentContext,
    private readonly opts: CcmOptions,
  ) {}

  /** Changes the delay before the CCM initializes a newly registered Node (a scenario fault, S1). */
  setInitDelay(range: Range | undefined): void {
    this.opts.initDelay = range;
  }

  /** The delay set by setInitDelay, undefined for the default. */
  get initDelay(): Range | undefined {
    return this.opts.initDelay;
  }

  /** Watches Nodes and starts the instance monitor. */
  start(): void {
    this.ctx.informers.get<Node>(SimResources.nodes).on({
      add: (n) => this.schedule(n),
      update: (_o, n) => this.schedule(n),
      delete: (n) => {
        this.pending.get(n.metadata.name ?? '')?.();
        this.pending.delete(n.metadata.name ?? '');
      },
    });
    const period = this.opts.monitorPeriodMs ?? 5_000;
    const tick = (): void => {
      void this.monitor().finally(() => {
        if (this.cancelMonitor) this.cancelMonitor = this.ctx.clock.setTimer(period, tick);
      });
    };
    this.cancelMonitor = this.ctx.clock.setTimer(period, tick);
  }

  /** Stops all work. */
  stop(): void {
    for (const c of this.pending.values()) c();
    this.pending.clear();
    this.cancelMonitor?.();
    this.cancelMonitor = undefined;
  }

  private machineOf(node: Node): Machine | undefined {
    const id = node.spec?.providerID;
    if (id) return this.opts.machines.get(id);
    return this.opts.machines.list().find((m) => m.nodeName === node.metadata.name);
  }

  private schedule(node: Node): void {
    const name = node.metadata.name ?? '';
    const uninitialized = node.spec?.taints?.some((t) => t.key === EphemeralTaintKeys.cloudProviderUninitialized);
    if (!uninitialized || this.pending.has(name)) return;
    const delay = this.ctx.rng.between(this.opts.initDelay ?? { min: 500, max: 5_000 });
    this.pending.set(
      name,
      this.ctx.clock.setTimer(delay, () => void this.initialize(name)),
    );
  }

  private async initialize(name: string): Promise<void> {
    const cached = this.ctx.informers.get<Node>(SimResources.nodes).cache.get(name);
    const m = cached ? this.machineOf(cached) : undefined;
    if (!cached || !m) {
      this.pending.delete(name);
      return;
    }
    try {
      // Read fresh, as the real CCM does, so the write is conditional on what it just saw.
      await updateWithRetry<Node>({
        client: this.ctx.client,
        resource: SimResources.nodes,
        ref: { name },
        mutate: (fresh) => initialized(fresh, m),
      });
    } catch (e) {
      if (!isNotFound(e)) this.ctx.onError?.(this.name, e);
    } finally {
      this.pending.delete(name);
    }
  }

  /** One pass of the cloud node lifecycle controller. */
  async monitor(): Promise<void> {
    for (const node of this.ctx.informers.get<Node>(SimResources.nodes).cache.list()) {
      try {
        await this.checkInstance(node);
      } catch (e) {
        if (!isNotFound(e)) this.ctx.onError?.(this.name, e);
      }
    }
  }

  private async checkInstance(node: Node): Promise<void> {
    // Like the real controller, only nodes that are not Ready are looked at.
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
    if (ready || !node.spec?.providerID) return;
    const m = this.machineOf(node);
    if (isGone(m) && m?.state !== 'shutting-down')
      await this.ctx.client.delete(SimResources.nodes, { name: node.metadata.name ?? '' });
    else if (m && m.state !== 'running' && m.state !== 'pending') await this.taintShutdown(node);
  }

  private async taintShutdown(node: Node): Promise<void> {
    if (node.spec?.taints?.some((t) => t.key === ShutdownTaint.key)) return;
    await updateWithRetry<Node>({
      client: this.ctx.client,
      resource: SimResources.nodes,
      ref: { name: node.metadata.name ?? '' },
      current: node,
      mutate: (fresh) =>
        fresh.spec?.taints?.some((t) => t.key === ShutdownTaint.key)
          ? undefined
          : { ...fresh, spec: { ...fresh.spec, taints: [...(fresh.spec?.taints ?? []), ShutdownTaint] } },
    });
  }
}
