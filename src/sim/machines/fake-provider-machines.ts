/**
 * Machines from the FakeCloudProvider (src/cloudprovider/fake): each live instance is a running machine that
 * boots with AL2023 userData generated from its NodeClaim, exactly as the AWS provider would generate it, so
 * the kubelet registers with the registration taint, the NodeClaim's taints, startup taints and labels. The
 * fake has no change events, so the adapter polls its `instances` map on the clock.
 */
import type { Clock } from '../../clock/index.js';
import type { FakeCloudProvider } from '../../cloudprovider/fake/index.js';
import type { NodeClaim } from '../../cloudprovider/types.js';
import { generateUserData } from '../../providers/aws/bootstrap/index.js';
import { Labels } from '../../api/index.js';
import { MapMachineSource, type Machine } from './machine.js';

/** Options of the adapter. */
export interface FakeProviderMachinesOptions {
  provider: FakeCloudProvider;
  clock: Clock;
  region?: string;
  /** How often the instances map is compared with the last snapshot (ms, default 1000). */
  pollMs?: number;
  /** Overrides the userData a NodeClaim's machine boots with (default: generated AL2023). */
  userDataFor?: (claim: NodeClaim) => string;
}

function generatedUserData(claim: NodeClaim): string {
  return generateUserData({
    amiFamily: 'AL2023',
    cluster: { name: 'playground', endpoint: 'https://127.0.0.1', caBundle: 'Cg==', serviceCidr: '10.100.0.0/16' },
    labels: claim.metadata.labels ?? {},
    taints: claim.spec.taints ?? [],
    startupTaints: claim.spec.startupTaints ?? [],
  });
}

/** A MachineSource over a FakeCloudProvider; terminated instances disappear from the listing. */
export class FakeProviderMachines extends MapMachineSource {
  private cancel: (() => void) | undefined;

  /** Creates the adapter and takes a first snapshot; call start() to poll. */
  constructor(private readonly opts: FakeProviderMachinesOptions) {
    super();
    this.sync();
  }

  /** Starts polling the provider. */
  start(): void {
    const tick = (): void => {
      this.sync();
      this.cancel = this.opts.clock.setTimer(this.opts.pollMs ?? 1000, tick);
    };
    this.cancel = this.opts.clock.setTimer(this.opts.pollMs ?? 1000, tick);
  }

  /** Stops polling. */
  stop(): void {
    this.cancel?.();
  }

  /** Compares the provider's instances with the snapshot; notifies listeners on a difference. */
  sync(): void {
    let changed = false;
    for (const [id, claim] of this.opts.provider.instances) {
      if (this.machines.has(id)) continue;
      this.machines.set(id, this.toMachine(id, claim));
      changed = true;
    }
    for (const id of [...this.machines.keys()]) {
      if (this.opts.provider.instances.has(id)) continue;
      this.machines.delete(id);
      changed = true;
    }
    if (changed) this.notify();
  }

  private toMachine(providerID: string, claim: NodeClaim): Machine {
    const labels = claim.metadata.labels ?? {};
    const instanceId = providerID.split('/').pop() ?? providerID;
    const capacity = claim.status?.capacity ?? {};
    return {
      providerID,
      instanceId,
      nodeName: instanceId,
      instanceType: labels[Labels.instanceType] ?? 'unknown',
      zone: labels[Labels.zone] ?? 'unknown',
      region: this.opts.region ?? 'us-west-2',
      arch: labels[Labels.arch] ?? 'amd64',
      os: labels[Labels.os] ?? 'linux',
      capacityType: labels[Labels.capacityType],
      capacity,
      allocatable: claim.status?.allocatable,
      userData: (this.opts.userDataFor ?? generatedUserData)(claim),
      amiFamily: 'AL2023',
      launchTime: this.opts.clock.now(),
      state: 'running',
    };
  }
}
