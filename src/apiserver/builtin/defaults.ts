/** The defaults and create-time resets kube-apiserver applies to the built-in kinds Tenon uses. */
import { deepEqual, isJson, type Json, type KObject } from '../types.js';

function obj(parent: Json, key: string): Json {
  const v = parent[key];
  if (isJson(v)) return v;
  const fresh: Json = {};
  parent[key] = fresh;
  return fresh;
}

// Defaults of a pod spec, in a Pod or in a workload's pod template.
function podSpecDefaults(o: KObject): void {
  const spec = obj(o, 'spec');
  spec.restartPolicy ??= 'Always';
  spec.schedulerName ??= 'default-scheduler';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  for (const c of Array.isArray(spec.containers) ? spec.containers : []) if (isJson(c)) containerDefaults(c);
}

// Defaults only a Pod gets (not a template): priority (admission), service links, requests from limits.
function podDefaults(o: KObject): void {
  podSpecDefaults(o);
  const spec = obj(o, 'spec');
  spec.priority ??= 0;
  spec.enableServiceLinks ??= true;
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
  for (const list of ['initContainers', 'containers'])
    for (const c of Array.isArray(spec[list]) ? spec[list] : []) if (isJson(c)) requestsFromLimits(c);
}

// A limit without a request makes the request equal to it.
function requestsFromLimits(c: Json): void {
  const res = isJson(c.resources) ? c.resources : undefined;
  if (!res || !isJson(res.limits)) return;
  const requests = isJson(res.requests) ? res.requests : {};
  for (const [k, v] of Object.entries(res.limits)) requests[k] ??= v;
  res.requests = requests;
}

function containerDefaults(c: Json): void {
  const image = typeof c.image === 'string' ? c.image : '';
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  c.imagePullPolicy ??= image.endsWith(':latest') || !image.includes(':') ? 'Always' : 'IfNotPresent';
  c.resources ??= {};
}

function workloadDefaults(o: KObject): void {
  const spec = obj(o, 'spec');
  if (o.kind !== 'DaemonSet') spec.replicas ??= 1;
  if (o.kind !== 'ReplicaSet') spec.revisionHistoryLimit ??= 10;
  if (o.kind === 'Deployment') {
    spec.progressDeadlineSeconds ??= 600;
    // kubectl create sends `strategy: {}`: an empty type defaults as a missing strategy does.
    const strategy = isJson(spec.strategy) ? spec.strategy : {};
    if (!strategy.type) strategy.type = 'RollingUpdate';
    if (strategy.type === 'RollingUpdate') strategy.rollingUpdate ??= { maxSurge: '25%', maxUnavailable: '25%' };
    spec.strategy = strategy;
  }
  if (o.kind === 'DaemonSet')
    spec.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
  const template = obj(spec, 'template');
  const tspec = template.spec;
  if (isJson(tspec)) podSpecDefaults({ metadata: {}, spec: tspec });
}

/** Job defaults; without manualSelector the selector and template labels name the Job's uid, as upstream. */
function jobDefaults(o: KObject): void {
  const spec = obj(o, 'spec');
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= 'TerminatingOrFailed';
  const template = obj(spec, 'template');
  if (spec.manualSelector !== true) {
    const uid = o.metadata.uid ?? '';
    const name = o.metadata.name ?? '';
    spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
    const meta = obj(template, 'metadata');
    meta.labels = {
      ...(isJson(meta.labels) ? meta.labels : {}),
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': name,
      'controller-uid': uid,
      'job-name': name,
    };
  }
  if (isJson(template.spec)) podSpecDefaults({ metadata: {}, spec: template.spec });
}

// Create-time defaults and status resets per kind. Node keeps the status it registers with (kubelet
// self-registration); kinds not listed have none.
const createDefaults: Readonly<Record<string, (o: KObject) => void>> = {
  Pod: (o) => {
    podDefaults(o);
    o.status = { phase: 'Pending' };
  },
  Namespace: (o) => {
    o.spec = { finalizers: ['kubernetes'] };
    o.status = { phase: 'Active' };
  },
  Deployment: workloadCreateDefaults,
  ReplicaSet: workloadCreateDefaults,
  StatefulSet: workloadCreateDefaults,
  DaemonSet: workloadCreateDefaults,
  Job: (o) => {
    jobDefaults(o);
    o.status = {};
  },
  Service: (o) => {
    obj(o, 'spec').type ??= 'ClusterIP';
  },
  // An empty type (kubectl create secret generic sends "") defaults like a missing one.
  Secret: (o) => {
    if (!o.type) o.type = 'Opaque';
  },
  PersistentVolumeClaim: (o) => {
    o.status = { phase: 'Pending' };
  },
  PersistentVolume: (o) => {
    o.status = { phase: 'Pending' };
  },
  PodTemplate: templateDefaults,
  PodDisruptionBudget: (o) => {
    o.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  },
};

function workloadCreateDefaults(o: KObject): void {
  workloadDefaults(o);
  o.status = o.kind === 'ReplicaSet' ? { replicas: 0 } : {};
}

/** Applies create-time defaults and resets (Pod and workload status start empty; a Pod starts Pending). */
export function applyCreateDefaults(o: KObject, _hasStatus: boolean): void {
  createDefaults[o.kind ?? '']?.(o);
}

/**
 * Defaults kube-apiserver applies on every write (it defaults each decoded request): a workload whose
 * replicas a server-side apply dropped gets 1 again. Only the idempotent workload defaults run here.
 */
export function applyUpdateDefaults(o: KObject): void {
  if (o.kind === 'Deployment' || o.kind === 'ReplicaSet' || o.kind === 'StatefulSet' || o.kind === 'DaemonSet')
    workloadDefaults(o);
  if (o.kind === 'PodTemplate') templateDefaults(o);
}

// A PodTemplate's pod spec gets the pod-spec defaults, as a workload's template does.
function templateDefaults(o: KObject): void {
  const template = isJson(o.template) ? o.template : undefined;
  if (template && isJson(template.spec)) podSpecDefaults({ metadata: {}, spec: template.spec });
}

/** Fields of a kind that may not change after create: `path` and the upstream message. */
export function immutableChange(oldObj: KObject, newObj: KObject): { field: string; detail: string } | undefined {
  if (oldObj.kind === 'Pod') {
    const a = oldObj.spec as Json | undefined;
    const b = newObj.spec as Json | undefined;
    if (a?.nodeName && a.nodeName !== b?.nodeName) return { field: 'spec.nodeName', detail: 'field is immutable' };
    if (!deepEqual(a?.containers, b?.containers) && !sameExceptImages(a?.containers, b?.containers)) {
      return {
        field: 'spec',
        detail:
          'pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations), `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
      };
    }
  }
  return undefined;
}

function sameExceptImages(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const strip = (cs: unknown[]): unknown[] => cs.map((c) => (isJson(c) ? { ...c, image: '' } : c));
  return deepEqual(strip(a), strip(b));
}
