/**
 * The PV controller with a CSI provisioner: an Immediate claim gets a new PV in a random allowed zone after a
 * short delay, independently of any pod (S4); a WaitForFirstConsumer claim waits for the scheduler's
 * selected-node annotation and gets a PV in that node's zone. The PV carries the zone as node affinity.
 */
import { Labels } from '../../api/index.js';
import { isAlreadyExists, isNotFound, keyOf, type Node } from '../../kube/index.js';
import type { Range } from '../kubelet/timings.js';
import { SelectedNodeAnnotation } from '../scheduler/volume-binding.js';
import type { Agent, AgentContext } from '../world/agent.js';
import { startQueue, type QueueRunner } from '../world/queue-runner.js';
import {
  SimResources,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
} from '../world/resources.js';

/** Options of the PV controller. */
export interface PvControllerOptions {
  /** Claim seen → volume bound (default 1–4 s). */
  provisionDelay?: Range;
  /** Zones to pick from when a StorageClass allows any (default: the zones of the current nodes). */
  zones?: readonly string[];
}

const defaultClassAnnotation = 'storageclass.kubernetes.io/is-default-class';

/** The PV controller agent. */
export class PersistentVolumeController implements Agent {
  readonly name = 'persistentvolume-controller';
  private runner: QueueRunner | undefined;
  private readonly provisioning = new Set<string>();

  /** Creates the controller. */
  constructor(
    private readonly ctx: AgentContext,
    private readonly opts: PvControllerOptions = {},
  ) {}

  /** Watches claims and classes. */
  start(): void {
    this.runner = startQueue(this.ctx, { name: this.name, reconcile: (k) => this.reconcile(k) });
    const claims = this.ctx.informers.get<PersistentVolumeClaim>(SimResources.persistentVolumeClaims);
    claims.on({ add: (c) => this.runner?.queue.add(keyOf(c)), update: (_o, c) => this.runner?.queue.add(keyOf(c)) });
    this.ctx.informers
      .get<StorageClass>(SimResources.storageClasses)
      .on({ add: () => claims.cache.list().forEach((c) => this.runner?.queue.add(keyOf(c))) });
    this.ctx.informers.get(SimResources.persistentVolumes);
  }

  /** Stops the controller. */
  stop(): void {
    this.runner?.stop();
  }

  private storageClass(claim: PersistentVolumeClaim): StorageClass | undefined {
    const classes = this.ctx.informers.get<StorageClass>(SimResources.storageClasses).cache.list();
    if (claim.spec.storageClassName !== undefined)
      return classes.find((c) => c.metadata.name === claim.spec.storageClassName);
    return classes.find((c) => c.metadata.annotations?.[defaultClassAnnotation] === 'true');
  }

  private async reconcile(key: string): Promise<void> {
    const claim = this.ctx.informers.get<PersistentVolumeClaim>(SimResources.persistentVolumeClaims).cache.get(key);
    if (!claim || claim.metadata.deletionTimestamp || this.provisioning.has(key)) return;
    if (claim.spec.volumeName) {
      if (claim.status?.phase !== 'Bound') await this.markBound(claim);
      return;
    }
    const sc = this.storageClass(claim);
    if (!sc) return;
    const zone = this.zoneFor(claim, sc);
    if (!zone) return;
    this.provisioning.add(key);
    this.ctx.clock.setTimer(this.ctx.rng.between(this.opts.provisionDelay ?? { min: 1_000, max: 4_000 }), () => {
      void this.provision(claim, sc, zone)
        .catch((e: unknown) => this.ctx.onError?.(this.name, e))
        .finally(() => {
          this.provisioning.delete(key);
          this.runner?.queue.add(key);
        });
    });
  }

  private zoneFor(claim: PersistentVolumeClaim, sc: StorageClass): string | undefined {
    if (sc.volumeBindingMode === 'WaitForFirstConsumer') {
      const node = claim.metadata.annotations?.[SelectedNodeAnnotation];
      return node
        ? this.ctx.informers.get<Node>(SimResources.nodes).cache.get(node)?.metadata.labels?.[Labels.zone]
        : undefined;
    }
    const allowed = sc.allowedTopologies
      ?.flatMap((t) => t.matchLabelExpressions ?? [])
      .filter((e) => e.key === Labels.zone || e.key.endsWith('/zone'))
      .flatMap((e) => e.values);
    const nodeZones = this.ctx.informers
      .get<Node>(SimResources.nodes)
      .cache.list()
      .map((n) => n.metadata.labels?.[Labels.zone])
      .filter((z): z is string => z !== undefined);
    const zones = allowed?.length
      ? allowed
      : this.opts.zones?.length
        ? [...this.opts.zones]
        : [...new Set(nodeZones)].sort();
    return zones.length > 0 ? this.ctx.rng.pick(zones) : undefined;
  }

  private async provision(claim: PersistentVolumeClaim, sc: StorageClass, zone: string): Promise<void> {
    const name = `pvc-${claim.metadata.uid ?? this.ctx.rng.suffix(12)}`;
    const pv: PersistentVolume = {
      metadata: { name, annotations: { 'pv.kubernetes.io/provisioned-by': sc.provisioner } },
      spec: {
        capacity: { storage: claim.spec.resources?.requests?.storage ?? '1Gi' },
        accessModes: claim.spec.accessModes ?? ['ReadWriteOnce'],
        storageClassName: sc.metadata.name,
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        claimRef: {
          kind: 'PersistentVolumeClaim',
          namespace: claim.metadata.namespace,
          name: claim.metadata.name,
          uid: claim.metadata.uid,
        },
        csi: { driver: sc.provisioner, volumeHandle: `vol-${this.ctx.rng.suffix(17)}` },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: Labels.zone, operator: 'In', values: [zone] }] }],
          },
        },
      },
    };
    await this.ctx.client.create(SimResources.persistentVolumes, pv).catch((e: unknown) => {
      if (!isAlreadyExists(e)) throw e;
    });
    await this.ctx.client.patch(
      SimResources.persistentVolumes,
      { name },
      { status: { phase: 'Bound' } },
      { subresource: 'status' },
    );
    const ref = { name: claim.metadata.name ?? '', namespace: claim.metadata.namespace };
    await this.ctx.client.patch(SimResources.persistentVolumeClaims, ref, {
      metadata: { annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } },
      spec: { volumeName: name },
    });
  }

  private async markBound(claim: PersistentVolumeClaim): Promise<void> {
    const pv = this.ctx.informers
      .get<PersistentVolume>(SimResources.persistentVolumes)
      .cache.get(claim.spec.volumeName ?? '');
    try {
      await this.ctx.client.patch(
        SimResources.persistentVolumeClaims,
        { name: claim.metadata.name ?? '', namespace: claim.metadata.namespace },
        {
          status: {
            phase: 'Bound',
            accessModes: claim.spec.accessModes ?? ['ReadWriteOnce'],
            capacity: pv?.spec.capacity ?? claim.spec.resources?.requests ?? {},
          },
        },
        { subresource: 'status' },
      );
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
