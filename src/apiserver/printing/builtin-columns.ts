/** The `kubectl get` columns kube-apiserver prints for the built-in kinds (k8s.io/kubernetes printers). */
import { humanDuration } from './human-duration.js';
import { isJson, type Json, type KObject } from '../types.js';

/** A column and how to fill its cell. */
export interface Column {
  name: string;
  type: string;
  format?: string;
  priority: number;
  description: string;
  cell(o: KObject, now: number): unknown;
}

function get(o: unknown, ...path: string[]): unknown {
  let cur = o;
  for (const p of path) cur = isJson(cur) ? cur[p] : undefined;
  return cur;
}

function arr(v: unknown): Json[] {
  return Array.isArray(v) ? v.filter(isJson) : [];
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** The Age cell of an object. */
export function age(o: KObject, now: number): string {
  const t = o.metadata.creationTimestamp;
  return t ? humanDuration(now - Date.parse(t)) : '<unknown>';
}

const col = (name: string, cell: Column['cell'], priority = 0, type = 'string'): Column => ({
  name,
  type,
  priority,
  description: name,
  cell,
});
const nameCol: Column = { ...col('Name', (o) => o.metadata.name ?? ''), format: 'name' };
const ageCol = col('Age', age);

function podStatus(o: KObject): string {
  if (o.metadata.deletionTimestamp) return 'Terminating';
  const reason = get(o, 'status', 'reason');
  if (typeof reason === 'string' && reason) return reason;
  for (const cs of arr(get(o, 'status', 'containerStatuses'))) {
    const waiting = get(cs, 'state', 'waiting', 'reason');
    if (typeof waiting === 'string' && waiting) return waiting;
  }
  return String(get(o, 'status', 'phase') ?? 'Unknown');
}

function podReady(o: KObject): string {
  const total = arr(get(o, 'spec', 'containers')).length;
  const ready = arr(get(o, 'status', 'containerStatuses')).filter((c) => c.ready === true).length;
  return `${ready}/${total}`;
}

function nodeStatus(o: KObject): string {
  const ready = arr(get(o, 'status', 'conditions')).find((c) => c.type === 'Ready');
  const parts = [ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown'];
  if (get(o, 'spec', 'unschedulable') === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function nodeRoles(o: KObject): string {
  const roles = Object.keys(o.metadata.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice(24));
  return roles.length > 0 ? roles.join(',') : '<none>';
}

function address(o: KObject, type: string): string {
  return String(arr(get(o, 'status', 'addresses')).find((a) => a.type === type)?.address ?? '<none>');
}

function orNone(v: unknown): unknown {
  return v === undefined || v === null || v === '' ? '<none>' : v;
}

function selectorText(sel: unknown): string {
  const labels = get(sel, 'matchLabels');
  return isJson(labels)
    ? Object.entries(labels)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(',')
    : '<none>';
}

function containersOf(o: KObject): Json[] {
  return arr(get(o, 'spec', 'template', 'spec', 'containers'));
}

const workloadWide = [
  col(
    'Containers',
    (o) =>
      containersOf(o)
        .map((c) => String(c.name))
        .join(','),
    1,
  ),
  col(
    'Images',
    (o) =>
      containersOf(o)
        .map((c) => String(c.image))
        .join(','),
    1,
  ),
  col('Selector', (o) => selectorText(get(o, 'spec', 'selector')), 1),
];

function involvedObject(o: KObject): string {
  const io = get(o, 'involvedObject') ?? get(o, 'regarding');
  return `${String(get(io, 'kind') ?? '').toLowerCase()}/${String(get(io, 'name') ?? '')}`;
}

function lastSeen(o: KObject, now: number): string {
  const t = get(o, 'lastTimestamp') ?? get(o, 'eventTime') ?? o.metadata.creationTimestamp;
  return typeof t === 'string' ? humanDuration(now - Date.parse(t)) : '<unknown>';
}

function jobStatus(o: KObject): string {
  if (o.metadata.deletionTimestamp) return 'Terminating';
  const conds = arr(get(o, 'status', 'conditions')).filter((c) => c.status === 'True');
  for (const type of ['Complete', 'Failed', 'FailureTarget', 'SuccessCriteriaMet', 'Suspended'])
    if (conds.some((c) => c.type === type)) return type;
  return 'Running';
}

function jobCompletions(o: KObject): string {
  const succeeded = num(get(o, 'status', 'succeeded'));
  const completions = get(o, 'spec', 'completions');
  if (typeof completions === 'number') return `${succeeded}/${completions}`;
  const parallelism = num(get(o, 'spec', 'parallelism'));
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(o: KObject, now: number): string {
  const start = get(o, 'status', 'startTime');
  if (typeof start !== 'string') return '';
  const end = get(o, 'status', 'completionTime');
  return humanDuration((typeof end === 'string' ? Date.parse(end) : now) - Date.parse(start));
}

const byKind: Record<string, Column[]> = {
  Pod: [
    nameCol,
    col('Ready', podReady),
    col('Status', podStatus),
    col(
      'Restarts',
      (o) => arr(get(o, 'status', 'containerStatuses')).reduce((n, c) => n + num(c.restartCount), 0),
      0,
      'string',
    ),
    ageCol,
    col('IP', (o) => orNone(get(o, 'status', 'podIP')), 1),
    col('Node', (o) => orNone(get(o, 'spec', 'nodeName')), 1),
    col('Nominated Node', (o) => orNone(get(o, 'status', 'nominatedNodeName')), 1),
    col('Readiness Gates', () => '<none>', 1),
  ],
  Node: [
    nameCol,
    col('Status', nodeStatus),
    col('Roles', nodeRoles),
    ageCol,
    col('Version', (o) => String(get(o, 'status', 'nodeInfo', 'kubeletVersion') ?? '')),
    col('Internal-IP', (o) => address(o, 'InternalIP'), 1),
    col('External-IP', (o) => address(o, 'ExternalIP'), 1),
    col('OS-Image', (o) => orNone(get(o, 'status', 'nodeInfo', 'osImage')), 1),
    col('Kernel-Version', (o) => orNone(get(o, 'status', 'nodeInfo', 'kernelVersion')), 1),
    col('Container-Runtime', (o) => orNone(get(o, 'status', 'nodeInfo', 'containerRuntimeVersion')), 1),
  ],
  Namespace: [nameCol, col('Status', (o) => String(get(o, 'status', 'phase') ?? '')), ageCol],
  Deployment: [
    nameCol,
    col('Ready', (o) => `${num(get(o, 'status', 'readyReplicas'))}/${num(get(o, 'spec', 'replicas'))}`),
    col('Up-to-date', (o) => num(get(o, 'status', 'updatedReplicas')), 0, 'integer'),
    col('Available', (o) => num(get(o, 'status', 'availableReplicas')), 0, 'integer'),
    ageCol,
    ...workloadWide,
  ],
  ReplicaSet: [
    nameCol,
    col('Desired', (o) => num(get(o, 'spec', 'replicas')), 0, 'integer'),
    col('Current', (o) => num(get(o, 'status', 'replicas')), 0, 'integer'),
    col('Ready', (o) => num(get(o, 'status', 'readyReplicas')), 0, 'integer'),
    ageCol,
    ...workloadWide,
  ],
  DaemonSet: [
    nameCol,
    col('Desired', (o) => num(get(o, 'status', 'desiredNumberScheduled')), 0, 'integer'),
    col('Current', (o) => num(get(o, 'status', 'currentNumberScheduled')), 0, 'integer'),
    col('Ready', (o) => num(get(o, 'status', 'numberReady')), 0, 'integer'),
    col('Up-to-date', (o) => num(get(o, 'status', 'updatedNumberScheduled')), 0, 'integer'),
    col('Available', (o) => num(get(o, 'status', 'numberAvailable')), 0, 'integer'),
    col('Node Selector', (o) => {
      const ns = get(o, 'spec', 'template', 'spec', 'nodeSelector');
      return isJson(ns)
        ? Object.entries(ns)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(',')
        : '<none>';
    }),
    ageCol,
    ...workloadWide,
  ],
  Job: [
    nameCol,
    col('Status', jobStatus),
    col('Completions', jobCompletions),
    col('Duration', jobDuration),
    ageCol,
    ...workloadWide,
  ],
  Event: [
    col('Last Seen', lastSeen),
    col('Type', (o) => String(get(o, 'type') ?? '')),
    col('Reason', (o) => String(get(o, 'reason') ?? '')),
    col('Object', involvedObject),
    col('Message', (o) => String(get(o, 'message') ?? get(o, 'note') ?? '')),
  ],
  PodDisruptionBudget: [
    nameCol,
    col('Min Available', (o) =>
      orNone(get(o, 'spec', 'minAvailable')) === '<none>' ? 'N/A' : String(get(o, 'spec', 'minAvailable')),
    ),
    col('Max Unavailable', (o) =>
      orNone(get(o, 'spec', 'maxUnavailable')) === '<none>' ? 'N/A' : String(get(o, 'spec', 'maxUnavailable')),
    ),
    col('Allowed Disruptions', (o) => num(get(o, 'status', 'disruptionsAllowed')), 0, 'integer'),
    ageCol,
  ],
  CustomResourceDefinition: [nameCol, col('Created At', (o) => o.metadata.creationTimestamp ?? '', 0, 'date')],
  ConfigMap: [nameCol, col('Data', (o) => (isJson(o.data) ? Object.keys(o.data).length : 0), 0, 'integer'), ageCol],
  Lease: [nameCol, col('Holder', (o) => String(get(o, 'spec', 'holderIdentity') ?? '')), ageCol],
  PriorityClass: [
    nameCol,
    col('Value', (o) => num(o.value), 0, 'integer'),
    col('Global-Default', (o) => o.globalDefault === true, 0, 'boolean'),
    ageCol,
  ],
  StorageClass: [
    nameCol,
    col('Provisioner', (o) => String(o.provisioner ?? '')),
    col('ReclaimPolicy', (o) => String(o.reclaimPolicy ?? 'Delete')),
    col('VolumeBindingMode', (o) => String(o.volumeBindingMode ?? 'Immediate')),
    ageCol,
  ],
  PersistentVolumeClaim: [
    nameCol,
    col('Status', (o) => String(get(o, 'status', 'phase') ?? '')),
    col('Volume', (o) => String(get(o, 'spec', 'volumeName') ?? '')),
    ageCol,
  ],
};

/** The columns of a built-in kind (Name and Age for kinds without a printer of their own). */
export function builtinColumns(kind: string): Column[] {
  return byKind[kind] ?? [nameCol, ageCol];
}
