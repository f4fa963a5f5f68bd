/**
 * The EC2NodeClass controller: resolves each class into its status (subnets, security groups, AMIs, instance
 * profile, with Karpenter's conditions), adds the userData lint as `UserDataValid`, keeps the drift hash
 * annotations current, and on deletion waits for the class's NodeClaims to go, cleans up what Tenon created in
 * AWS (launch templates, the instance profile) and releases its finalizer.
 */
import { Annotations, ConditionTypes, Finalizers, type EC2NodeClass } from '../../../../api/index.js';
import { rfc3339, type Clock } from '../../../../clock/index.js';
import {
  ignoreNotFound,
  Informer,
  Resources,
  updateWithRetry,
  WorkQueue,
  type EventRecorder,
  type KubeClient,
  type KubeObject,
  type Reconciler,
  type ReconcileResult,
} from '../../../../kube/index.js';
import type { AwsCloudProvider } from '../../aws-cloud-provider.js';
import { cleanupNodeClass } from '../../nodeclass/cleanup.js';
import type { NodeClassResolver } from '../../nodeclass/resolver.js';
import type { AwsPort } from '../../ports/index.js';
import { restampNodeClaims } from './restamp.js';
import { NodeClassEventReasons } from './event-reasons.js';
import { userDataVerdict } from './user-data-condition.js';

/** A stored EC2NodeClass. */
export type StoredNodeClass = EC2NodeClass & KubeObject;

/** How often a Ready class is re-resolved (AMIs move, subnets change): Karpenter's is 5 minutes. */
const refreshMs = 5 * 60_000;

/** What the controller needs. */
export interface NodeClassControllerOptions {
  client: KubeClient;
  clock: Clock;
  port: AwsPort;
  resolver: NodeClassResolver;
  provider: AwsCloudProvider;
  recorder: EventRecorder;
  clusterName: string;
  nodeClasses: Informer<StoredNodeClass>;
  /** Whether any NodeClaim still uses the class (deletion waits for none). */
  inUse(name: string): Promise<boolean>;
}

/** The EC2NodeClass controller. */
export class NodeClassController implements Reconciler {
  readonly name = 'nodeclass';
  readonly queue: WorkQueue;
  private readonly reported = new Map<string, string>();

  /** Creates the controller; class changes queue the class. */
  constructor(private readonly o: NodeClassControllerOptions) {
    this.queue = new WorkQueue(o.clock);
    const enqueue = (nc: StoredNodeClass): void => this.queue.add(nc.metadata.name ?? '');
    o.nodeClasses.on({ add: enqueue, update: (_old, nc) => enqueue(nc) });
  }

  /** Resolves one class, or finishes its deletion. */
  async reconcile(name: string): Promise<ReconcileResult | void> {
    const cached = this.o.nodeClasses.cache.get(name);
    if (!cached) return;
    if (cached.metadata.deletionTimestamp) return this.finalize(cached);
    if (!cached.metadata.finalizers?.includes(Finalizers.awsTermination)) {
      await this.o.client
        .patch(
          Resources.ec2NodeClasses,
          { name },
          { metadata: { finalizers: [...(cached.metadata.finalizers ?? []), Finalizers.awsTermination] } },
        )
        .catch(ignoreNotFound);
    }
    const resolution = await this.o.resolver.resolve(cached);
    const verdict = userDataVerdict(cached);
    const annotations = cached.metadata.annotations ?? {};
    if (Object.entries(resolution.annotations).some(([k, v]) => annotations[k] !== v)) {
      await this.o.client
        .patch(Resources.ec2NodeClasses, { name }, { metadata: { annotations: resolution.annotations } })
        .catch(ignoreNotFound);
    }
    if (annotations[Annotations.nodeClassHashVersion] !== resolution.annotations[Annotations.nodeClassHashVersion])
      await restampNodeClaims({ client: this.o.client, nodeClassName: name, annotations: resolution.annotations });
    await this.writeStatus(name, resolution.status, verdict.condition);
    if (verdict.event && this.reported.get(name) !== verdict.event) {
      this.reported.set(name, verdict.event);
      await this.o.recorder.publish(cached, {
        type: 'Warning',
        reason: NodeClassEventReasons.userDataLint,
        message: verdict.event,
      });
    }
    return { requeueAfter: resolution.ready ? refreshMs : 30_000 };
  }

  private async writeStatus(
    name: string,
    resolved: NonNullable<EC2NodeClass['status']>,
    userData: ReturnType<typeof userDataVerdict>['condition'],
  ): Promise<void> {
    const now = rfc3339(this.o.clock.now());
    await updateWithRetry<StoredNodeClass>({
      client: this.o.client,
      resource: Resources.ec2NodeClasses,
      ref: { name },
      subresource: 'status',
      mutate: (fresh) => {
        const previous = fresh.status?.conditions?.find((c) => c.type === ConditionTypes.userDataValid);
        const same = previous?.status === userData.status;
        const udv = {
          ...userData,
          lastTransitionTime: same && previous ? previous.lastTransitionTime : now,
          observedGeneration: fresh.metadata.generation,
        };
        const conditions = [...(resolved.conditions ?? []).filter((c) => c.type !== ConditionTypes.userDataValid), udv];
        const next = { ...resolved, conditions };
        if (JSON.stringify(next) === JSON.stringify(fresh.status)) return undefined;
        fresh.status = next;
        return fresh;
      },
    }).catch(ignoreNotFound);
  }

  private async finalize(nc: StoredNodeClass): Promise<ReconcileResult | void> {
    const name = nc.metadata.name ?? '';
    if (!nc.metadata.finalizers?.includes(Finalizers.awsTermination)) return;
    if (await this.o.inUse(name)) {
      await this.o.recorder.publish(nc, {
        type: 'Normal',
        reason: NodeClassEventReasons.waitingOnNodeClaimTermination,
        message: `Waiting on NodeClaim termination for ${name}`,
      });
      return { requeueAfter: 10_000 };
    }
    await cleanupNodeClass({
      port: this.o.port,
      templates: this.o.provider.launchTemplates,
      clusterName: this.o.clusterName,
      nodeClass: nc,
    });
    await updateWithRetry<StoredNodeClass>({
      client: this.o.client,
      resource: Resources.ec2NodeClasses,
      ref: { name },
      mutate: (fresh) => {
        if (!fresh.metadata.finalizers?.includes(Finalizers.awsTermination)) return undefined;
        fresh.metadata.finalizers = fresh.metadata.finalizers.filter((f) => f !== Finalizers.awsTermination);
        return fresh;
      },
    }).catch(ignoreNotFound);
  }
}
