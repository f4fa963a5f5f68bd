/** The pod statuses a kubelet posts as a pod moves from admitted to running, succeeded or rejected. */
import type { Pod, PodCondition } from '../../kube/index.js';

/**
 * Annotation (on a pod or its template): how many seconds its containers run before they exit, the playground's
 * stand-in for a Job's work. Without it, pods owned by a Job run `JobDefaultRunSeconds`; others run forever.
 */
export const RunSecondsAnnotation = 'sim.tenon.dev/run-seconds';
/** Annotation: the exit code the containers exit with after their run time (default 0). */
export const ExitCodeAnnotation = 'sim.tenon.dev/exit-code';
/** How long a Job's pod runs when it carries no run-seconds annotation. */
export const JobDefaultRunSeconds = 30;

type Status = NonNullable<Pod['status']> & Record<string, unknown>;

function condition(type: string, ok: boolean, now: string, reason?: string): PodCondition {
  return { type, status: ok ? 'True' : 'False', lastTransitionTime: now, ...(reason ? { reason } : {}) };
}

function containerStatuses(
  pod: Pod,
  state: Record<string, unknown>,
  ready: boolean,
  restarts?: { count: number; last: Record<string, unknown> },
): Array<Record<string, unknown>> {
  return pod.spec.containers.map((c) => ({
    name: c.name,
    image: c.image ?? '',
    ready,
    restartCount: restarts?.count ?? 0,
    started: ready,
    state,
    ...(restarts ? { lastState: restarts.last } : {}),
  }));
}

/** Admitted; containers being created. */
export function creatingStatus(pod: Pod, now: string, podIP: string): Status {
  return {
    phase: 'Pending',
    startTime: now,
    podIP,
    conditions: [
      condition('PodScheduled', true, now),
      condition('Initialized', true, now),
      condition('ContainersReady', false, now, 'ContainersNotReady'),
      condition('Ready', false, now, 'ContainersNotReady'),
    ],
    containerStatuses: containerStatuses(pod, { waiting: { reason: 'ContainerCreating' } }, false),
  };
}

/** All containers started and ready. */
export function runningStatus(pod: Pod, now: string): Status {
  return {
    phase: 'Running',
    conditions: [
      condition('PodScheduled', true, now),
      condition('Initialized', true, now),
      condition('ContainersReady', true, now),
      condition('Ready', true, now),
    ],
    containerStatuses: containerStatuses(pod, { running: { startedAt: now } }, true),
  };
}

/**
 * Whether the API server has a Running pod not Ready: what the kubelet's status manager, comparing it with its own
 * view of a running pod, reconciles.
 */
export function unreadyOnServer(pod: Pod): boolean {
  return (
    pod.status?.phase === 'Running' &&
    !(pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false)
  );
}

/**
 * A running pod's conditions as its kubelet knows them, after another component (the node lifecycle controller)
 * set it not ready: ContainersReady and Ready True again, the other conditions as they are.
 */
export function readyAgainStatus(pod: Pod, now: string): Status {
  const conditions = [...(pod.status?.conditions ?? [])];
  for (const type of ['ContainersReady', 'Ready']) {
    const i = conditions.findIndex((c) => c.type === type);
    if (i < 0) conditions.push(condition(type, true, now));
    else if (conditions[i]?.status !== 'True') conditions[i] = condition(type, true, now);
  }
  return { conditions };
}

/** All containers started again after exiting `exitCode` (restartPolicy OnFailure or Always); restart number `count`. */
export function restartedStatus(
  pod: Pod,
  now: string,
  r: { count: number; exitCode: number; finishedAt: string },
): Status {
  const last = {
    terminated: { exitCode: r.exitCode, reason: r.exitCode === 0 ? 'Completed' : 'Error', finishedAt: r.finishedAt },
  };
  return {
    ...runningStatus(pod, now),
    containerStatuses: containerStatuses(pod, { running: { startedAt: now } }, true, { count: r.count, last }),
  };
}

/** All containers exited non-zero and will not restart (restartPolicy Never). */
export function failedStatus(pod: Pod, now: string, exitCode: number): Status {
  return {
    phase: 'Failed',
    conditions: [
      condition('PodScheduled', true, now),
      condition('Initialized', true, now),
      condition('ContainersReady', false, now, 'PodFailed'),
      condition('Ready', false, now, 'PodFailed'),
    ],
    containerStatuses: containerStatuses(pod, { terminated: { exitCode, reason: 'Error', finishedAt: now } }, false),
  };
}

/** All containers exited 0. */
export function succeededStatus(pod: Pod, now: string): Status {
  return {
    phase: 'Succeeded',
    conditions: [
      condition('PodScheduled', true, now),
      condition('Initialized', true, now),
      condition('ContainersReady', false, now, 'PodCompleted'),
      condition('Ready', false, now, 'PodCompleted'),
    ],
    containerStatuses: containerStatuses(
      pod,
      { terminated: { exitCode: 0, reason: 'Completed', finishedAt: now } },
      false,
    ),
  };
}

/** Rejected at admission. */
export function rejectedStatus(reason: string, message: string): Status {
  return { phase: 'Failed', reason, message };
}

/** How long the pod's containers run before exiting, if they exit at all. */
export function runSeconds(pod: Pod): number | undefined {
  const text = pod.metadata.annotations?.[RunSecondsAnnotation];
  const n = text === undefined ? NaN : Number(text);
  if (Number.isFinite(n) && n >= 0) return n;
  return pod.metadata.ownerReferences?.some((o) => o.controller && o.kind === 'Job') ? JobDefaultRunSeconds : undefined;
}

/** The exit code the pod's containers exit with. */
export function exitCode(pod: Pod): number {
  const n = Number(pod.metadata.annotations?.[ExitCodeAnnotation] ?? 0);
  return Number.isInteger(n) ? n : 1;
}

/** Whether a container that exited with `code` is restarted in place, by the pod's restartPolicy. */
export function restartsAfter(pod: Pod, code: number): boolean {
  const policy = pod.spec.restartPolicy ?? 'Always';
  return policy === 'Always' || (policy === 'OnFailure' && code !== 0);
}
