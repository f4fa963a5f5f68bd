/** Simulated EC2 instances and their state machine: pending → running → shutting-down → terminated. */
import type { Clock } from '../../clock/index.js';
import type {
  BlockDeviceMapping,
  InstanceInfo,
  InstanceState,
  MetadataOptions,
  Tags,
} from '../../providers/aws/ports/index.js';

/** Everything the simulated account knows about an instance: what DescribeInstances shows and what it booted with. */
export interface SimInstance extends InstanceInfo {
  privateDnsName: string;
  privateIp: string;
  /** Plain-text userData the instance boots with (what a simulated kubelet reads). */
  userData: string;
  launchTemplateName: string;
  instanceProfileName: string;
  metadataOptions: MetadataOptions;
  blockDeviceMappings: BlockDeviceMapping[];
  /** Why the instance stopped, once it did (`Client.UserInitiatedShutdown`, `Server.SpotInstanceTermination`, ...). */
  stateReason?: string;
}

/** A change of one instance, as listeners see it. */
export interface SimInstanceEvent {
  type: 'launched' | 'state-changed' | 'tags-changed';
  instance: SimInstance;
}

/** How long each transition takes, in milliseconds of the injected clock. */
export interface InstanceTimings {
  /** pending → running. */
  launchLatencyMs: number;
  /** shutting-down → terminated. */
  shutdownMs: number;
  /** How long a terminated instance stays visible to DescribeInstances (EC2: about an hour). */
  terminatedVisibleMs: number;
}

/** Default timings: a 5 s boot to running, 5 s to terminate, terminated instances visible for an hour. */
export const defaultTimings: InstanceTimings = {
  launchLatencyMs: 5_000,
  shutdownMs: 5_000,
  terminatedVisibleMs: 3_600_000,
};

/** The instances of the account, advanced by the clock. */
export class InstanceStore {
  private readonly byId = new Map<string, SimInstance>();
  private readonly listeners = new Set<(e: SimInstanceEvent) => void>();
  private readonly clock: Clock;
  readonly timings: InstanceTimings;
  /** Called when an instance reaches `terminated` (to give its capacity back). */
  private readonly onTerminated: (i: SimInstance) => void;

  constructor(input: { clock: Clock; timings: InstanceTimings; onTerminated: (i: SimInstance) => void }) {
    this.clock = input.clock;
    this.timings = input.timings;
    this.onTerminated = input.onTerminated;
  }

  /** Adds a pending instance and schedules it to run after the launch latency. */
  launch(instance: SimInstance): void {
    this.byId.set(instance.instanceId, instance);
    this.emit({ type: 'launched', instance });
    this.clock.setTimer(this.timings.launchLatencyMs, () => {
      if (instance.state === 'pending') this.transition(instance, 'running');
    });
  }

  /** Starts terminating an instance (no-op when it already is). */
  terminate(instance: SimInstance, reason: string): void {
    if (instance.state === 'shutting-down' || instance.state === 'terminated') return;
    instance.stateReason = reason;
    this.transition(instance, 'shutting-down');
    this.clock.setTimer(this.timings.shutdownMs, () => {
      this.transition(instance, 'terminated');
      this.onTerminated(instance);
      this.clock.setTimer(this.timings.terminatedVisibleMs, () => this.byId.delete(instance.instanceId));
    });
  }

  /** Merges tags onto an instance. */
  tag(instance: SimInstance, tags: Tags): void {
    Object.assign(instance.tags, tags);
    this.emit({ type: 'tags-changed', instance });
  }

  /** The instance with that id, while it is still visible. */
  get(id: string): SimInstance | undefined {
    return this.byId.get(id);
  }

  /** Every visible instance, in launch order. */
  all(): SimInstance[] {
    return [...this.byId.values()];
  }

  /** Registers a listener; returns the function that removes it. */
  subscribe(listener: (e: SimInstanceEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private transition(instance: SimInstance, state: InstanceState): void {
    instance.state = state;
    this.emit({ type: 'state-changed', instance });
  }

  private emit(e: SimInstanceEvent): void {
    for (const l of this.listeners) l(e);
  }
}

/** The port's view of an instance (a copy, so callers cannot mutate the account). */
export function toInstanceInfo(i: SimInstance): InstanceInfo {
  return {
    instanceId: i.instanceId,
    instanceType: i.instanceType,
    zone: i.zone,
    subnetId: i.subnetId,
    imageId: i.imageId,
    state: i.state,
    capacityType: i.capacityType,
    launchTime: new Date(i.launchTime.getTime()),
    securityGroupIds: [...i.securityGroupIds],
    privateDnsName: i.privateDnsName,
    ...(i.capacityReservationId === undefined ? {} : { capacityReservationId: i.capacityReservationId }),
    tags: { ...i.tags },
  };
}

/** An instance's values for DescribeInstances filters (`instance-id`, `instance-state-name`, …). */
export function filterAttributes(i: SimInstance): Record<string, string> {
  return {
    'instance-id': i.instanceId,
    'instance-state-name': i.state,
    'instance-type': i.instanceType,
    'availability-zone': i.zone,
    'subnet-id': i.subnetId,
    'image-id': i.imageId,
    'private-dns-name': i.privateDnsName,
  };
}
