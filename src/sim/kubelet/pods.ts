/**
 * The kubelet's pod workers: admit a bound pod (or reject it), post ContainerCreating, wait for its volumes,
 * start it after the start delay, finish run-to-completion pods, and on deletion stop the containers and
 * remove the pod with grace period 0, which is how the API server learns the kubelet is done.
 */
import { rfc3339, type Clock } from '../../clock/index.js';
import { isNotFound, type KubeClient, type Node, type Pod } from '../../kube/index.js';
import { nodeInfo } from '../scheduler/node-info.js';
import { SimResources } from '../world/resources.js';
import type { Rng } from '../world/random.js';
import { admit } from './admission.js';
import {
  creatingStatus,
  exitCode,
  failedStatus,
  readyAgainStatus,
  rejectedStatus,
  restartedStatus,
  restartsAfter,
  runningStatus,
  runSeconds,
  succeededStatus,
  unreadyOnServer,
} from './pod-status.js';
import type { KubeletTimings } from './timings.js';

/** What the pod workers need from their kubelet. */
export interface PodHost {
  client: KubeClient;
  clock: Clock;
  rng: Rng;
  timings: KubeletTimings;
  /** The kubelet's Node as last seen. */
  node(): Node | undefined;
  /** True when every volume of the pod is bound and attached to this node. */
  volumesReady(pod: Pod): boolean;
  onError(e: unknown): void;
}

type Phase = 'creating' | 'running' | 'terminating' | 'done';

interface Tracked {
  pod: Pod;
  phase: Phase;
  cancel?: () => void;
  restarts?: number;
  /** The newest status not yet taken by the API server: a failed post is retried while it is still the newest. */
  status?: Record<string, unknown>;
  /** Cancels the status manager's pending reconcile of a running pod the API server has not ready. */
  reconcile?: () => void;
  /** A status post is in flight; a newer status waits for it. */
  posting?: boolean;
}

const volumeRetryMs = 2_000;
/** The kubelet's status manager syncs every 10 s: a status the API server did not take is posted again then. */
export const statusRetryMs = 10_000;
/** CrashLoopBackOff: 10 s doubling per restart, capped at 5 min, as the kubelet's. */
const backOffMs = (restarts: number): number => Math.min(300_000, 10_000 * 2 ** Math.max(0, restarts - 1));

/** The kubelet's PLEG relists containers once a second, so it sees a container start or stop on that tick. */
const relistMs = 1_000;

/** The delay from `now` until the first relist at or after `now + ms`. */
export function untilRelist(now: number, ms: number): number {
  return Math.ceil((now + ms) / relistMs) * relistMs - now;
}

/** The pods one kubelet runs. */
export class PodWorkers {
  private readonly pods = new Map<string, Tracked>();
  private stopped = false;

  /** Creates the workers of one kubelet. */
  constructor(private readonly host: PodHost) {}

  /** Reacts to the current state of a pod bound to this node. */
  sync(pod: Pod): void {
    if (this.stopped) return;
    const uid = pod.metadata.uid ?? '';
    const t = this.pods.get(uid);
    if (t) t.pod = pod;
    if (pod.metadata.deletionTimestamp) return this.terminate(uid, pod, t);
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') {
      if (t) t.phase = 'done';
      return;
    }
    if (!t) return this.admitPod(uid, pod);
    if (!t.cancel && t.phase === 'creating') this.scheduleStart(uid, this.host.rng.between(this.host.timings.podStart));
    if (t.phase === 'running' && unreadyOnServer(pod)) this.reconcileLater(uid, t);
  }

  /** Forgets a pod that is gone. */
  forget(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const t = this.pods.get(uid);
    t?.cancel?.();
    t?.reconcile?.();
    this.pods.delete(uid);
  }

  /** The pods that use the node's resources. */
  admitted(): Pod[] {
    return [...this.pods.values()].filter((t) => t.phase === 'creating' || t.phase === 'running').map((t) => t.pod);
  }

  /** Stops all work (the kubelet died); state is kept so a restart resumes it. */
  stop(): void {
    this.stopped = true;
    for (const t of this.pods.values()) {
      t.cancel?.();
      t.cancel = undefined;
      t.reconcile?.();
      t.reconcile = undefined;
    }
  }

  /** Resumes after stop(): every pod is synced again by the caller. */
  resume(): void {
    this.stopped = false;
  }

  private admitPod(uid: string, pod: Pod): void {
    const node = this.host.node();
    if (!node) return;
    const verdict = admit(pod, nodeInfo(node, this.admitted()));
    if (!verdict.admit) {
      this.pods.set(uid, { pod, phase: 'done' });
      void this.postStatus(pod, rejectedStatus(verdict.reason, verdict.message));
      return;
    }
    this.pods.set(uid, { pod, phase: 'creating' });
    const ip = `10.${this.host.rng.int(0, 255)}.${this.host.rng.int(0, 255)}.${this.host.rng.int(1, 254)}`;
    void this.postStatus(pod, creatingStatus(pod, rfc3339(this.host.clock.now()), ip));
    this.scheduleStart(uid, this.host.rng.between(this.host.timings.podStart));
  }

  /**
   * The status manager's periodic sync: a running pod the API server has not Ready (the node lifecycle controller
   * marked it while this kubelet was silent) gets the kubelet's own status again at the next sync tick.
   */
  private reconcileLater(uid: string, t: Tracked): void {
    if (t.reconcile) return;
    const now = this.host.clock.now();
    t.reconcile = this.host.clock.setTimer(statusRetryMs - (now % statusRetryMs), () => {
      t.reconcile = undefined;
      if (this.stopped || this.pods.get(uid) !== t || t.phase !== 'running' || !unreadyOnServer(t.pod)) return;
      void this.postStatus(t.pod, readyAgainStatus(t.pod, rfc3339(this.host.clock.now())));
    });
  }

  private scheduleStart(uid: string, ms: number): void {
    const t = this.pods.get(uid);
    if (!t) return;
    t.cancel = this.host.clock.setTimer(untilRelist(this.host.clock.now(), ms), () => {
      t.cancel = undefined;
      if (t.phase !== 'creating') return;
      if (!this.host.volumesReady(t.pod)) return this.scheduleStart(uid, volumeRetryMs);
      t.phase = 'running';
      void this.postStatus(t.pod, runningStatus(t.pod, rfc3339(this.host.clock.now())));
      const run = runSeconds(t.pod);
      if (run !== undefined) this.scheduleCompletion(t, run * 1000);
    });
  }

  /** The containers exit after `ms`: the pod finishes, or (by its restartPolicy) its containers restart after a back-off. */
  private scheduleCompletion(t: Tracked, ms: number): void {
    t.cancel = this.host.clock.setTimer(untilRelist(this.host.clock.now(), ms), () => {
      t.cancel = undefined;
      if (t.phase !== 'running') return;
      const code = exitCode(t.pod);
      const finishedAt = rfc3339(this.host.clock.now());
      if (!restartsAfter(t.pod, code)) {
        t.phase = 'done';
        void this.postStatus(
          t.pod,
          code === 0 ? succeededStatus(t.pod, finishedAt) : failedStatus(t.pod, finishedAt, code),
        );
        return;
      }
      const count = (t.restarts ?? 0) + 1;
      t.restarts = count;
      t.cancel = this.host.clock.setTimer(backOffMs(count), () => {
        t.cancel = undefined;
        if (t.phase !== 'running') return;
        void this.postStatus(
          t.pod,
          restartedStatus(t.pod, rfc3339(this.host.clock.now()), { count, exitCode: code, finishedAt }),
        );
        this.scheduleCompletion(t, (runSeconds(t.pod) ?? 0) * 1000);
      });
    });
  }

  private terminate(uid: string, pod: Pod, t: Tracked | undefined): void {
    if (t?.phase === 'terminating' && t.cancel) return;
    t?.cancel?.();
    const tracked: Tracked = t ?? { pod, phase: 'terminating' };
    tracked.phase = 'terminating';
    this.pods.set(uid, tracked);
    const grace = (pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30) * 1000;
    const stopMs = untilRelist(this.host.clock.now(), this.host.rng.between(this.host.timings.podStop));
    tracked.cancel = this.host.clock.setTimer(Math.min(grace, stopMs), () => {
      tracked.cancel = undefined;
      void this.finishDeletion(pod);
    });
  }

  private async finishDeletion(pod: Pod): Promise<void> {
    try {
      await this.host.client.delete(
        SimResources.pods,
        { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace },
        { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } },
      );
    } catch (e) {
      if (!isNotFound(e)) this.host.onError(e);
    }
  }

  /**
   * Posts the pod's newest status. As the kubelet's status manager, one post per pod is in flight at a time and a
   * status that comes while one is in flight is posted after it: two concurrent posts could reach the API server
   * in either order, and a Running pod would then stay ContainerCreating for good.
   */
  private async postStatus(pod: Pod, status: Record<string, unknown>): Promise<void> {
    const uid = pod.metadata.uid ?? '';
    const t = this.pods.get(uid);
    if (!t)
      return this.patchStatus(pod, status).catch((e: unknown) => (isNotFound(e) ? undefined : this.host.onError(e)));
    t.status = status;
    if (t.posting) return;
    t.posting = true;
    try {
      // Only a refused status is kept for the retry: a running pod's status is a dozen objects per pod.
      for (let next: Tracked['status'] = t.status; next !== undefined && this.pods.get(uid) === t; next = t.status) {
        try {
          await this.patchStatus(t.pod, next);
          if (t.status === next) t.status = undefined;
        } catch (e) {
          if (isNotFound(e)) return;
          this.host.onError(e);
          // A newer status is posted at once; this one again later unless the pod is gone, the kubelet stopped or a
          // newer status came since.
          if (t.status !== next) continue;
          const failed = next;
          this.host.clock.setTimer(statusRetryMs, () => {
            if (!this.stopped && this.pods.get(uid) === t && t.status === failed) void this.postStatus(t.pod, failed);
          });
          return;
        }
      }
    } finally {
      t.posting = false;
    }
  }

  private async patchStatus(pod: Pod, status: Record<string, unknown>): Promise<void> {
    await this.host.client.patch(
      SimResources.pods,
      { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace },
      { status },
      { subresource: 'status' },
    );
  }
}
