/** The pod statuses a kubelet posts as a pod moves from admitted to running, succeeded or rejected. */
import type { Pod, PodCondition } from '../../kube/index.js';

/** Annotation: how long a pod's containers run before exiting 0 (the playground's stand-in for a Job's work). */
export const RunSecondsAnnotation = 'sim.tenon.dev/run-seconds';

type Status = NonNullable<Pod['status']> & Record<string, unknown>;

function condition(type: string, ok: boolean, now: string, reason?: string): PodCondition {
  return { type, status: ok ? 'True' : 'False', lastTransitionTime: now, ...(reason ? { reason } : {}) };
}

function containerStatuses(pod: Pod, state: Record<string, unknown>, ready: boolean): Array<Record<string, unknown>> {
  return pod.spec.containers.map((c) => ({ name: c.name, image: c.image ?? '', ready, restartCount: 0, started: ready, state }));
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
    conditions: [condition('PodScheduled', true, now), condition('Initialized', true, now), condition('ContainersReady', true, now), condition('Ready', true, now)],
    containerStatuses: containerStatuses(pod, { running: { startedAt: now } }, true),
  };
}

/** All containers exited 0. */
export function succeededStatus(pod: Pod, now: string): Status {
  return {
    phase: 'Succeeded',
    conditions: [condition('PodScheduled', true, now), condition('Initialized', true, now), condition('ContainersReady', false, now, 'PodCompleted'), condition('Ready', false, now, 'PodCompleted')],
    containerStatuses: containerStatuses(pod, { terminated: { exitCode: 0, reason: 'Completed', finishedAt: now } }, false),
  };
}

/** Rejected at admission. */
export function rejectedStatus(reason: string, message: string): Status {
  return { phase: 'Failed', reason, message };
}

/** How long the pod's containers run before succeeding, if it is a run-to-completion pod. */
export function runSeconds(pod: Pod): number | undefined {
  const text = pod.metadata.annotations?.[RunSecondsAnnotation];
  const n = text === undefined ? NaN : Number(text);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}
