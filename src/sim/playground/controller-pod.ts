/**
 * The `tenon` pod in kube-system: where a Karpenter user looks for the controller (`kubectl logs -n kube-system
 * tenon`). The controllers run inside the playground's process, so the pod is bound to no node and no scheduler
 * places it; the API server serves its log from the process.
 */
import type { PodLogs } from '../../apiserver/index.js';
import { isAlreadyExists, Resources, type KubeClient, type Pod, type PodCondition } from '../../kube/index.js';
import type { ControllerLog } from './controller-log.js';

/** Where the controller pod lives and what its container is called. */
export const controllerPod = { namespace: 'kube-system', name: 'tenon', container: 'controller' } as const;

/** Set as the pod's scheduler: none exists, so neither the simulated kube-scheduler nor Tenon ever places it. */
const noScheduler = 'tenon-playground-process';

function podSpec(): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: controllerPod.name,
      namespace: controllerPod.namespace,
      labels: { 'app.kubernetes.io/name': 'tenon', 'app.kubernetes.io/instance': 'tenon' },
      annotations: {
        'kubectl.kubernetes.io/default-container': controllerPod.container,
        'tenon.playground/note':
          "Tenon's controllers run in the playground process; this pod stands for them and serves their log",
      },
    },
    spec: {
      containers: [{ name: controllerPod.container, image: 'tenon:playground' }],
      schedulerName: noScheduler,
      restartPolicy: 'Always',
    },
  };
}

function runningStatus(startedAt: string): NonNullable<Pod['status']> {
  const condition = (type: string): PodCondition => ({
    type,
    status: 'True',
    lastTransitionTime: startedAt,
  });
  // containerStatuses is what kubectl's READY column counts; the Pod type leaves it out.
  const status: NonNullable<Pod['status']> & { containerStatuses: unknown[] } = {
    phase: 'Running',
    startTime: startedAt,
    conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map(condition),
    containerStatuses: [
      {
        name: controllerPod.container,
        image: 'tenon:playground',
        imageID: '',
        ready: true,
        started: true,
        restartCount: 0,
        state: { running: { startedAt } },
      },
    ],
  };
  return status;
}

/** Creates the pod (a restored cluster may already hold it) and marks it Running since `startedAt`. */
export async function ensureControllerPod(client: KubeClient, startedAt: string): Promise<void> {
  let pod: Pod;
  try {
    pod = await client.create<Pod>(Resources.pods, podSpec());
  } catch (e: unknown) {
    if (!isAlreadyExists(e)) throw e;
    pod = await client.get<Pod>(Resources.pods, { namespace: controllerPod.namespace, name: controllerPod.name });
  }
  await client.update<Pod>(Resources.pods, { ...pod, status: runningStatus(startedAt) }, 'status');
}

/** The API server's pods/log lookup: the controller pod's container reads the controllers' log. */
export function controllerPodLogs(log: ControllerLog): PodLogs {
  return (namespace, pod, container) =>
    namespace === controllerPod.namespace && pod === controllerPod.name && container === controllerPod.container
      ? log
      : undefined;
}
