/**
 * The times in API objects that a real cluster writes on its wall clock: the API server's creation and deletion
 * timestamps on every object, kube-scheduler's PodScheduled condition (and the API server's, at binding), and the
 * node lifecycle controller's Unknown node conditions. Everything else with a time in it is written by the
 * playground itself on the simulated clock, or is not read by Tenon. Each rule rewrites its field in both
 * directions, so a field holds wall time in the cluster and simulated time in the playground.
 */

/** A time rewrite: wall ms to simulated ms (reads) or the other way (writes). */
export type TimeShift = (ms: number) => number;

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Node conditions the node lifecycle controller wrote, with the times it set (reason → fields). */
const nodeLifecycleConditions: Record<string, readonly string[]> = {
  NodeStatusUnknown: ['lastTransitionTime'],
  // It also takes the heartbeat from the node's creationTimestamp.
  NodeStatusNeverUpdated: ['lastTransitionTime', 'lastHeartbeatTime'],
};

/** The resource a request path names (`pods`, `nodes`, `karpenter.sh/nodeclaims` …), subresources aside. */
export function resourceOf(path: string): string {
  const parts = path.split('?')[0]?.split('/').filter(Boolean) ?? [];
  const group = parts[0] === 'api' ? '' : parts[0] === 'apis' ? (parts[1] ?? '') : undefined;
  if (group === undefined) return '';
  const rest = parts.slice(group === '' ? 2 : 3);
  const name = rest[0] === 'namespaces' && rest.length > 2 ? rest[2] : rest[0];
  return group ? `${group}/${name ?? ''}` : (name ?? '');
}

/**
 * Formats ms as RFC 3339 with milliseconds. The API server keeps whole seconds; the milliseconds keep two nearby
 * mapped times apart on the way to the playground.
 */
function rfc3339(ms: number): string {
  return new Date(Math.round(ms)).toISOString();
}

/** `t` shifted, or undefined when it is not a time. */
function shiftTime(t: unknown, shift: TimeShift, offsetMs = 0): string | undefined {
  if (typeof t !== 'string') return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : rfc3339(shift(ms - offsetMs) + offsetMs);
}

/** A copy of `o` with `key` set to `value` when `value` is defined; `o` itself otherwise. */
function withKey<T extends Json>(o: T, key: string, value: unknown): T {
  return value === undefined ? o : { ...o, [key]: value };
}

function shiftMetadata(meta: Json, shift: TimeShift): Json {
  let next = withKey(meta, 'creationTimestamp', shiftTime(meta.creationTimestamp, shift));
  // A pod's deletionTimestamp is the deletion's instant plus its grace period, a duration that stays as it is.
  const grace = typeof meta.deletionGracePeriodSeconds === 'number' ? meta.deletionGracePeriodSeconds * 1000 : 0;
  next = withKey(next, 'deletionTimestamp', shiftTime(meta.deletionTimestamp, shift, grace));
  return next;
}

function shiftConditions(conditions: unknown[], fieldsOf: (c: Json) => readonly string[], shift: TimeShift): unknown[] {
  let changed = false;
  const next = conditions.map((c) => {
    if (!isObject(c)) return c;
    let out = c;
    for (const field of fieldsOf(c)) out = withKey(out, field, shiftTime(c[field], shift));
    changed ||= out !== c;
    return out;
  });
  return changed ? next : conditions;
}

function conditionFields(resource: string): ((c: Json) => readonly string[]) | undefined {
  if (resource === 'pods') return (c) => (c.type === 'PodScheduled' ? ['lastTransitionTime'] : []);
  if (resource === 'nodes')
    return (c) => (typeof c.reason === 'string' ? (nodeLifecycleConditions[c.reason] ?? []) : []);
  return undefined;
}

/** `obj` (an object of `resource`) with its wall-clock fields shifted; `obj` itself when none is there. */
export function shiftObject(resource: string, obj: unknown, shift: TimeShift): unknown {
  if (!isObject(obj)) return obj;
  let next = obj;
  if (isObject(obj.metadata)) {
    const meta = shiftMetadata(obj.metadata, shift);
    if (meta !== obj.metadata) next = { ...next, metadata: meta };
  }
  const fields = conditionFields(resource);
  const status = obj.status;
  if (fields && isObject(status) && Array.isArray(status.conditions)) {
    const conditions = shiftConditions(status.conditions, fields, shift);
    if (conditions !== status.conditions) next = { ...next, status: { ...status, conditions } };
  }
  return next;
}

/**
 * A response body or watch event of `resource` with its wall-clock fields shifted: a list's items, a watch
 * event's object, or one object. Undefined when there is nothing to change (or it is not JSON).
 */
export function shiftText(resource: string, text: string, shift: TimeShift): string | undefined {
  if (!text.startsWith('{')) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(doc)) return undefined;
  let next: Json = doc;
  if (Array.isArray(doc.items)) {
    const items = doc.items.map((item) => shiftObject(resource, item, shift));
    if (items.some((item, i) => item !== (doc as { items: unknown[] }).items[i])) next = { ...doc, items };
  } else if (typeof doc.type === 'string' && isObject(doc.object)) {
    const object = shiftObject(resource, doc.object, shift);
    if (object !== doc.object) next = { ...doc, object };
  } else next = shiftObject(resource, doc, shift) as Json;
  return next === doc ? undefined : JSON.stringify(next);
}
