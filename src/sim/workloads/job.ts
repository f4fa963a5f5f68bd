/**
 * The Job controller: runs pods from the template until `completions` of them succeed, at most `parallelism` at a
 * time; fails the Job with BackoffLimitExceeded when more than `backoffLimit` pods failed (or, with restartPolicy
 * OnFailure, their containers restarted that often) and with DeadlineExceeded after `activeDeadlineSeconds`,
 * deleting the pods still running. Failed pods are replaced after kube's back-off (10 s doubling, 6 min cap).
 */
import { rfc3339 } from '../../clock/index.js';
import type { Pod } from '../../kube/index.js';
import type { AgentContext } from '../world/agent.js';
import { controllerRef, SimResources, type Job, type JobCondition } from '../world/resources.js';
import { inOrder } from './expectations.js';
import { OwnedPodsController, podsOf, writeStatus } from './owned-pods.js';
import { deletionOrder, isActive, isReady, podFromTemplate } from './pod-template.js';

/** How the Job's pods stand. */
interface Tally {
  active: Pod[];
  succeeded: number;
  failed: number;
  /** When the last pod failed (ms), for the replacement back-off. */
  lastFailure: number;
}

/** A reason the Job failed, with kube's condition texts. */
interface Failure {
  reason: 'BackoffLimitExceeded' | 'DeadlineExceeded';
  message: string;
}

const podBackOffMs = (failed: number): number => Math.min(360_000, 10_000 * 2 ** Math.max(0, failed - 1));

function restartsOf(p: Pod): number {
  const statuses =
    (p.status as { containerStatuses?: Array<{ restartCount?: number }> } | undefined)?.containerStatuses ?? [];
  return statuses.reduce((n, c) => n + (c.restartCount ?? 0), 0);
}

function failedAt(p: Pod): number {
  const times = (p.status?.conditions ?? [])
    .map((c) => Date.parse(c.lastTransitionTime ?? ''))
    .filter((t) => Number.isFinite(t));
  return times.length > 0 ? Math.max(...times) : 0;
}

function tally(pods: readonly Pod[]): Tally {
  const failedPods = pods.filter((p) => p.status?.phase === 'Failed');
  return {
    active: pods.filter(isActive),
    succeeded: pods.filter((p) => p.status?.phase === 'Succeeded').length,
    failed: failedPods.length,
    lastFailure: Math.max(0, ...failedPods.map(failedAt)),
  };
}

/** True once the Job has a Complete or Failed condition. */
export function isFinished(job: Job): boolean {
  return (job.status?.conditions ?? []).some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}

function failure(job: Job, t: Tally, now: number): Failure | undefined {
  const limit = job.spec.backoffLimit ?? 6;
  const restarts =
    job.spec.template.spec.restartPolicy === 'OnFailure' ? t.active.reduce((n, p) => n + restartsOf(p), 0) : 0;
  if (t.failed > limit || (restarts > 0 && restarts >= Math.max(1, limit)))
    return { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
  const deadline = job.spec.activeDeadlineSeconds;
  const start = job.status?.startTime ? Date.parse(job.status.startTime) : now;
  if (deadline !== undefined && now - start >= deadline * 1000)
    return { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
  return undefined;
}

function isComplete(job: Job, t: Tally): boolean {
  const completions = job.spec.completions;
  return completions === undefined ? t.succeeded > 0 && t.active.length === 0 : t.succeeded >= completions;
}

/** How many pods should run now. */
function wantActive(job: Job, t: Tally): number {
  const parallelism = job.spec.parallelism ?? 1;
  const completions = job.spec.completions;
  if (completions === undefined) return t.succeeded > 0 ? t.active.length : parallelism;
  return Math.max(0, Math.min(parallelism, completions - t.succeeded));
}

/** The Job controller agent. */
export class JobController extends OwnedPodsController {
  readonly name = 'job-controller';

  /** Creates the controller. */
  constructor(ctx: AgentContext) {
    super(ctx, { kind: 'Job', resource: SimResources.jobs });
  }

  protected async reconcile(key: string): Promise<void> {
    const job = this.ctx.informers.get<Job>(SimResources.jobs).cache.get(key);
    if (!job || job.metadata.deletionTimestamp || isFinished(job)) return;
    const now = this.ctx.clock.now();
    const t = tally(podsOf(this.ctx, job));
    const startTime = job.status?.startTime ?? rfc3339(now);
    const failed = failure({ ...job, status: { ...job.status, startTime } }, t, now);
    const complete = !failed && isComplete(job, t);
    if (failed) for (const p of t.active) await this.deletePod(p);
    else if (!complete && this.expectations.satisfied(key)) await this.scale(key, job, t);
    const deadline = job.spec.activeDeadlineSeconds;
    if (!failed && !complete && deadline !== undefined)
      this.runner?.queue.addAfter(key, Date.parse(startTime) + deadline * 1000 - now);
    await writeStatus(this.ctx, SimResources.jobs, job, { startTime, ...this.statusOf(t, failed, complete) });
  }

  private statusOf(t: Tally, failed: Failure | undefined, complete: boolean): Job['status'] {
    const counts = { succeeded: t.succeeded, failed: t.failed };
    if (failed) return { ...counts, active: 0, ready: 0, conditions: [this.condition('Failed', failed)] };
    const running = { ...counts, active: t.active.length, ready: t.active.filter(isReady).length };
    return complete
      ? { ...running, conditions: [this.condition('Complete')], completionTime: rfc3339(this.ctx.clock.now()) }
      : running;
  }

  private condition(type: 'Complete' | 'Failed', why?: Failure): JobCondition {
    const now = rfc3339(this.ctx.clock.now());
    return {
      type,
      status: 'True',
      lastProbeTime: now,
      lastTransitionTime: now,
      ...(why ? { reason: why.reason, message: why.message } : {}),
    };
  }

  private async scale(key: string, job: Job, t: Tally): Promise<void> {
    const diff = wantActive(job, t) - t.active.length;
    if (diff < 0) {
      const victims = [...t.active].sort(deletionOrder).slice(0, -diff);
      this.expectations.expect(key, 0, victims.length);
      await inOrder(
        victims,
        (p) => this.deletePod(p, key),
        () => this.expectations.deleted(key),
      );
      return;
    }
    if (diff === 0) return;
    const wait = t.failed > 0 ? t.lastFailure + podBackOffMs(t.failed) - this.ctx.clock.now() : 0;
    if (wait > 0) {
      this.runner?.queue.addAfter(key, wait);
      return;
    }
    this.expectations.expect(key, diff, 0);
    const slots = Array.from({ length: diff }, (_, i) => i);
    await inOrder(
      slots,
      () => this.createPod(key, this.newPod(job)),
      () => this.expectations.created(key),
    );
  }

  private newPod(job: Job): Pod {
    const namespace = job.metadata.namespace ?? 'default';
    return podFromTemplate(job.spec.template, {
      namespace,
      name: `${job.metadata.name ?? 'job'}-${this.ctx.rng.suffix(5)}`,
      owner: controllerRef(job, 'Job', 'batch/v1'),
    });
  }
}
