/**
 * The simulated EventBridge rules of Karpenter's interruption queue: the simulated EC2's instance state changes
 * (stopping, stopped, shutting-down, terminated) and its spot interruption warnings and rebalance
 * recommendations become EventBridge events on the queue, with the bodies AWS sends. Reclaiming a spot instance
 * is the 2-minute warning first, then the termination.
 */
import type { Clock } from '../../clock/index.js';
import { SimAccountId } from '../ec2/account.js';
import type { SimEc2 } from '../ec2/sim-ec2.js';
import type { SimQueue } from './sim-queue.js';

/** EC2's notice before it reclaims a spot instance. */
export const SpotInterruptionWarningMs = 2 * 60_000;

/** States EC2 publishes a state-change notification for that the queue's rule forwards. */
const forwardedStates: ReadonlySet<string> = new Set(['stopping', 'stopped', 'shutting-down', 'terminated']);

/** What the bridge connects. */
export interface SimEventBridgeOptions {
  clock: Clock;
  ec2: SimEc2;
  queue: SimQueue;
}

function eventTime(ms: number): string {
  // EventBridge stamps events to the second.
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Forwards the simulated EC2's events to the queue (see the module comment). */
export class SimEventBridge {
  private readonly cancels = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private seq = 0;

  /** Starts forwarding state changes. */
  constructor(private readonly o: SimEventBridgeOptions) {
    this.unsubscribe = o.ec2.onInstanceEvent((e) => {
      if (e.type === 'state-changed' && forwardedStates.has(e.instance.state))
        this.publish('EC2 Instance State-change Notification', e.instance.instanceId, { state: e.instance.state });
    });
  }

  /** Reclaims a running spot instance: the interruption warning now, the termination after the warning time. */
  interruptSpot(instanceId: string, warningMs = SpotInterruptionWarningMs): void {
    const i = this.o.ec2.getInstance(instanceId);
    if (!i) throw new Error(`no instance ${instanceId}`);
    if (i.capacityType !== 'spot')
      throw new Error(`${instanceId} is ${i.capacityType}, not spot: EC2 reclaims only spot`);
    this.publish('EC2 Spot Instance Interruption Warning', instanceId, { 'instance-action': 'terminate' });
    const cancel = this.o.clock.setTimer(warningMs, () => {
      this.cancels.delete(cancel);
      this.o.ec2.loseInstance(instanceId, 'Server.SpotInstanceTermination');
    });
    this.cancels.add(cancel);
  }

  /** Sends a rebalance recommendation: the instance is at elevated risk of interruption. */
  recommendRebalance(instanceId: string): void {
    this.publish('EC2 Instance Rebalance Recommendation', instanceId, {});
  }

  /** Stops forwarding and cancels pending reclaims. */
  stop(): void {
    this.unsubscribe();
    for (const c of this.cancels) c();
    this.cancels.clear();
  }

  private publish(detailType: string, instanceId: string, detail: Record<string, string>): void {
    const region = this.o.ec2.account.region;
    this.o.queue.send(
      JSON.stringify({
        version: '0',
        id: `sim-event-${++this.seq}`,
        'detail-type': detailType,
        source: 'aws.ec2',
        account: SimAccountId,
        time: eventTime(this.o.clock.now()),
        region,
        resources: [`arn:aws:ec2:${region}:${SimAccountId}:instance/${instanceId}`],
        detail: { 'instance-id': instanceId, ...detail },
      }),
    );
  }
}
