/**
 * What the simulated world needs to know about a running cloud machine, whichever cloud simulated it: the
 * kubelet boots from it, the CCM reads provider data from it and deletes Nodes whose machine is gone.
 */
import type { AmiFamily } from '../../providers/aws/bootstrap/index.js';

/** A machine's lifecycle state, in EC2's words. */
export type MachineState = 'pending' | 'running' | 'stopping' | 'stopped' | 'shutting-down' | 'terminated';

/** One simulated machine. */
export interface Machine {
  /** `aws:///<zone>/<instance-id>` (or the fake provider's form). */
  providerID: string;
  instanceId: string;
  /** The hostname the kubelet registers as (EC2: the private DNS name). */
  nodeName: string;
  instanceType: string;
  zone: string;
  region: string;
  /** `amd64` or `arm64`. */
  arch: string;
  /** `linux` or `windows`. */
  os: string;
  capacityType?: string;
  /** Resource quantities of the instance type (cpu, memory, pods, ephemeral-storage …). */
  capacity: Record<string, string>;
  /** Allocatable as the cloud already knows it; when absent the kubelet computes it from its reservations. */
  allocatable?: Record<string, string>;
  /**
   * Extended resources its device plugins advertise once they run (nvidia.com/gpu, aws.amazon.com/neuron …):
   * absent from the Node until then, as on a real node.
   */
  devices?: Record<string, string>;
  /** What the machine booted with. */
  userData: string;
  amiFamily: AmiFamily;
  /** The kubelet version the machine's image runs (`v1.33.1-eks-sim`), when the image says. */
  kubeletVersion?: string;
  /** ms since the epoch. */
  launchTime: number;
  state: MachineState;
  /** vCPUs and ENI-limited max pods, which bootstrap scripts read at boot. */
  vcpus?: number;
  eniMaxPods?: number;
  /** EBS attach limit the CSI driver reports on this instance type. */
  volumeAttachLimit?: number;
  privateIp?: string;
}

/** A source of machines: a listing plus change notifications. */
export interface MachineSource {
  /** Every machine the cloud still knows, including recently terminated ones. */
  list(): Machine[];
  /** The machine with this providerID, if the cloud still knows it. */
  get(providerID: string): Machine | undefined;
  /** Calls `fn` whenever a machine appears or changes state; returns an unsubscribe function. */
  subscribe(fn: () => void): () => void;
}

/** True while a machine is up (a kubelet runs on it). */
export function isRunning(m: Machine): boolean {
  return m.state === 'running';
}

/** True once a machine is gone or going for good. */
export function isGone(m: Machine | undefined): boolean {
  return m === undefined || m.state === 'terminated' || m.state === 'shutting-down';
}

/** A MachineSource kept in a map by providerID, notifying listeners on every change. */
export abstract class MapMachineSource implements MachineSource {
  protected readonly machines = new Map<string, Machine>();
  private readonly listeners = new Set<() => void>();

  /** Every machine. */
  list(): Machine[] {
    return [...this.machines.values()];
  }

  /** The machine with this providerID. */
  get(providerID: string): Machine | undefined {
    return this.machines.get(providerID);
  }

  /** Registers a change listener. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Tells every listener that the machines changed. */
  protected notify(): void {
    for (const fn of this.listeners) fn();
  }
}
