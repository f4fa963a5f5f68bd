/** Field selectors: the fields each kind makes selectable, and parsing and matching of selector text. */
import { badRequest } from './status.js';
import { isJson, type KObject } from './types.js';

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function put(out: Record<string, string>, key: string, v: unknown): void {
  const s = str(v);
  if (s !== undefined) out[key] = key === 'status.podIP' ? s : once(s);
}

function nested(obj: KObject, a: string, b: string): unknown {
  const o = obj[a];
  return isJson(o) ? o[b] : undefined;
}

function podFields(obj: KObject, out: Record<string, string>): void {
  out['spec.nodeName'] = once(str(nested(obj, 'spec', 'nodeName')) ?? '');
  out['status.phase'] = once(str(nested(obj, 'status', 'phase')) ?? '');
  put(out, 'spec.schedulerName', nested(obj, 'spec', 'schedulerName'));
  put(out, 'spec.serviceAccountName', nested(obj, 'spec', 'serviceAccountName'));
  put(out, 'status.podIP', nested(obj, 'status', 'podIP'));
  put(out, 'spec.restartPolicy', nested(obj, 'spec', 'restartPolicy'));
}

// Values most objects share (kinds, namespaces, reasons, phases) are kept once: a scale run stores 150,000 pods
// and twice as many Events, each with its own copy of "default", "Pod" or "FailedScheduling" otherwise.
const shared = new Map<string, string>();

function once(v: string): string {
  const kept = shared.get(v);
  if (kept !== undefined) return kept;
  if (shared.size >= 10_000) shared.clear();
  shared.set(v, v);
  return v;
}

/** Event fields that repeat across Events (the others, such as the object's name and uid, are each Event's own). */
const repeatedEventFields = new Set(['kind', 'namespace', 'apiVersion', 'fieldPath']);

// `regarding.*` (events.k8s.io) are the same fields as `involvedObject.*`: stored once, under involvedObject.
function eventFields(obj: KObject, out: Record<string, string>): void {
  const io = obj.involvedObject ?? obj.regarding;
  for (const f of ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']) {
    const v = isJson(io) ? (str(io[f]) ?? '') : '';
    out[`involvedObject.${f}`] = repeatedEventFields.has(f) ? once(v) : v;
  }
  out.reason = once(str(obj.reason) ?? '');
  out.type = once(str(obj.type) ?? '');
  const source = str(nested(obj, 'source', 'component'));
  if (source !== undefined) out.source = once(source);
}

/** The stored field a selectable field is read from (events.k8s.io's `regarding.*` are `involvedObject.*`). */
function storedField(field: string): string {
  return field.startsWith('regarding.') ? `involvedObject.${field.slice('regarding.'.length)}` : field;
}

const kindFields: Record<string, (obj: KObject, out: Record<string, string>) => void> = {
  Pod: podFields,
  Event: eventFields,
  Node: (obj, out) => {
    out['spec.unschedulable'] = str(nested(obj, 'spec', 'unschedulable')) ?? 'false';
  },
  Namespace: (obj, out) => {
    out['status.phase'] = str(nested(obj, 'status', 'phase')) ?? '';
  },
  Secret: (obj, out) => {
    out.type = str(obj.type) ?? '';
  },
};

/** The selectable field values of an object: metadata.name/namespace plus the kind's own fields. */
export function selectableFields(kind: string, obj: KObject): Record<string, string> {
  const out: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '', 'metadata.namespace': once(obj.metadata.namespace ?? '') };
  kindFields[kind]?.(obj, out);
  return out;
}

/** One `field=value` or `field!=value` requirement. */
export interface FieldRequirement {
  field: string;
  value: string;
  negate: boolean;
}

/** Parses `a=b,c!=d,e==f`; an empty text selects everything. */
export function parseFieldSelector(text: string | null): FieldRequirement[] {
  if (!text) return [];
  return text.split(',').filter((p) => p.trim() !== '').map((part) => {
    const m = /^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(part);
    if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    return { field: m[1] ?? '', value: m[3] ?? '', negate: m[2] === '!=' };
  });
}

/** Checks the fields named are selectable for the kind (a 400 like upstream's otherwise). */
export function checkFieldsKnown(reqs: FieldRequirement[], sample: Record<string, string>, kind: string): void {
  for (const r of reqs) {
    if (!(r.field in sample)) throw badRequest(`field label not supported: ${r.field}`);
  }
  void kind;
}

/** True when the fields satisfy every requirement. */
export function matchesFields(reqs: FieldRequirement[], fields: Record<string, string>): boolean {
  for (const r of reqs) {
    const v = fields[storedField(r.field)] ?? '';
    if ((v === r.value) === r.negate) return false;
  }
  return true;
}
