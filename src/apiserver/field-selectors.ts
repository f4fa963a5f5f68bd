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
  if (s !== undefined) out[key] = s;
}

function nested(obj: KObject, a: string, b: string): unknown {
  const o = obj[a];
  return isJson(o) ? o[b] : undefined;
}

function podFields(obj: KObject, out: Record<string, string>): void {
  out['spec.nodeName'] = str(nested(obj, 'spec', 'nodeName')) ?? '';
  out['status.phase'] = str(nested(obj, 'status', 'phase')) ?? '';
  put(out, 'spec.schedulerName', nested(obj, 'spec', 'schedulerName'));
  put(out, 'spec.serviceAccountName', nested(obj, 'spec', 'serviceAccountName'));
  put(out, 'status.podIP', nested(obj, 'status', 'podIP'));
  put(out, 'spec.restartPolicy', nested(obj, 'spec', 'restartPolicy'));
}

function eventFields(obj: KObject, out: Record<string, string>): void {
  const io = obj.involvedObject ?? obj.regarding;
  for (const f of ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']) {
    const v = isJson(io) ? (str(io[f]) ?? '') : '';
    out[`involvedObject.${f}`] = v;
    out[`regarding.${f}`] = v;
  }
  out.reason = str(obj.reason) ?? '';
  out.type = str(obj.type) ?? '';
  put(out, 'source', nested(obj, 'source', 'component'));
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
  const out: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '', 'metadata.namespace': obj.metadata.namespace ?? '' };
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
    const v = fields[r.field] ?? '';
    if ((v === r.value) === r.negate) return false;
  }
  return true;
}
