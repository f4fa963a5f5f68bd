/** Field selectors: the fields each kind makes selectable, and parsing and matching of selector text. */
import { badRequest } from '../status.js';
import { isJson, type KObject } from '../types.js';

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/**
 * Selectable values and field objects kept once per store: values most objects share (kinds, namespaces, reasons,
 * phases) and the field objects of pods with the same values, which a large cluster would otherwise hold a copy
 * of per pod and per Event. Bounded: each table starts over past 10,000 entries.
 */
export class SharedFieldValues {
  private readonly values = new Map<string, string>();
  private readonly fieldObjects = new Map<string, Record<string, string>>();

  /** The kept copy of a value. */
  value(v: string): string {
    const known = this.values.get(v);
    if (known !== undefined) return known;
    if (this.values.size >= 10_000) this.values.clear();
    this.values.set(v, v);
    return v;
  }

  /** The kept object of these field values (the fields of stored entries are never changed). */
  fields(fields: Record<string, string>): Record<string, string> {
    const key = Object.values(fields).join('\n');
    const known = this.fieldObjects.get(key);
    if (known) return known;
    if (this.fieldObjects.size >= 10_000) this.fieldObjects.clear();
    this.fieldObjects.set(key, fields);
    return fields;
  }
}

/** How selectable fields are made: the uid an object already holds, and the values kept once. */
interface FieldMaking {
  canonicalUid: (uid: string) => string;
  shared: SharedFieldValues | undefined;
}

/** A selectable value, kept once when sharing. */
function kept(v: unknown, m: FieldMaking): string {
  const s = str(v) ?? '';
  return m.shared ? m.shared.value(s) : s;
}

function nested(obj: KObject, a: string, b: string): unknown {
  const o = obj[a];
  return isJson(o) ? o[b] : undefined;
}

// Each kind's fields are made in one object literal: an object given its properties one by one keeps those past
// the fourth in a separate property array (24 bytes more for each of 300,000 stored Events).
// A pod's IP is not kept (see readPodFields): without it the pods of a node share one object of fields.
function podFields(obj: KObject, m: FieldMaking): Record<string, string> {
  const fields = {
    'spec.nodeName': kept(nested(obj, 'spec', 'nodeName'), m),
    'status.phase': kept(nested(obj, 'status', 'phase'), m),
    'spec.schedulerName': kept(nested(obj, 'spec', 'schedulerName'), m),
    'spec.serviceAccountName': kept(nested(obj, 'spec', 'serviceAccountName'), m),
    'spec.restartPolicy': kept(nested(obj, 'spec', 'restartPolicy'), m),
  };
  return m.shared ? m.shared.fields(fields) : fields;
}

/** Pod fields selected rarely and unique to each pod: read from the stored pod when a selector names them. */
const readPodFields: ReadonlySet<string> = new Set(['status.podIP']);

/** Selected rarely: read from the stored Event when a selector names them, not kept with each of 300,000 Events. */
const readEventFields: ReadonlySet<string> = new Set([
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'source',
]);

// `regarding.*` (events.k8s.io) are the same fields as `involvedObject.*`: stored once, under involvedObject.
// Kinds and namespaces repeat; the object's uid is the one its own entry holds; its name is each Event's own.
function eventFields(obj: KObject, m: FieldMaking): Record<string, string> {
  const io = obj.involvedObject ?? obj.regarding;
  const field = (f: string): string => (isJson(io) ? (str(io[f]) ?? '') : '');
  return {
    'involvedObject.kind': kept(field('kind'), m),
    'involvedObject.namespace': kept(field('namespace'), m),
    'involvedObject.name': field('name'),
    'involvedObject.uid': m.canonicalUid(field('uid')),
    reason: kept(obj.reason, m),
    type: kept(obj.type, m),
  };
}

/** An Event field that is not kept with the stored Event (see readEventFields), read from the Event itself. */
function readEventField(obj: KObject, field: string): string {
  if (field === 'source') return str(nested(obj, 'source', 'component')) ?? '';
  const io = obj.involvedObject ?? obj.regarding;
  return (isJson(io) ? str(io[field.slice('involvedObject.'.length)]) : undefined) ?? '';
}

/** The stored field a selectable field is read from (events.k8s.io's `regarding.*` are `involvedObject.*`). */
function storedField(field: string): string {
  return field.startsWith('regarding.') ? `involvedObject.${field.slice('regarding.'.length)}` : field;
}

/** The selectable fields kept with each stored object of a kind (Events: the ones `kubectl describe` selects by). */
const kindFields: Record<string, (obj: KObject, m: FieldMaking) => Record<string, string>> = {
  Pod: podFields,
  Event: eventFields,
  Node: (obj) => ({ 'spec.unschedulable': str(nested(obj, 'spec', 'unschedulable')) ?? 'false' }),
  Namespace: (obj) => ({ 'status.phase': str(nested(obj, 'status', 'phase')) ?? '' }),
  Secret: (obj) => ({ type: str(obj.type) ?? '' }),
};

/** The fields each kind makes selectable besides metadata.name and metadata.namespace. */
const kindFieldNames: Record<string, readonly string[]> = {
  Pod: [
    'spec.nodeName',
    'status.phase',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'status.podIP',
    'spec.restartPolicy',
  ],
  Node: ['spec.unschedulable'],
  Namespace: ['status.phase'],
  Secret: ['type'],
};

/**
 * The kind's own selectable field values of an object (undefined when the kind has none). metadata.name and
 * metadata.namespace are not among them: a stored entry reads them from its key.
 */
export function selectableFields(
  kind: string,
  obj: KObject,
  canonicalUid: (uid: string) => string = (uid) => uid,
  shared?: SharedFieldValues,
): Record<string, string> | undefined {
  return kindFields[kind]?.(obj, { canonicalUid, shared });
}

/** What field requirements are matched against: a stored entry. */
export interface FieldSource {
  /** The value of a selectable field ('' when the object has none). */
  field(name: string): string;
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
  return text
    .split(',')
    .filter((p) => p.trim() !== '')
    .map((part) => {
      const m = /^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(part);
      if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
      return { field: m[1] ?? '', value: m[3] ?? '', negate: m[2] === '!=' };
    });
}

/** Checks the fields named are selectable for the kind (a 400 like upstream's otherwise). Events' are not checked. */
export function checkFieldsKnown(reqs: FieldRequirement[], kind: string): void {
  if (kind === 'Event') return;
  const own = kindFieldNames[kind] ?? [];
  for (const r of reqs) {
    if (r.field !== 'metadata.name' && r.field !== 'metadata.namespace' && !own.includes(r.field))
      throw badRequest(`field label not supported: ${r.field}`);
  }
}

/**
 * The value of a kind's own selectable field as kept with the entry ('' when the object has none), or undefined
 * for the few that are not kept but read from the object when a selector names them (see readField).
 */
export function kindField(kind: string, fields: Record<string, string> | undefined, field: string): string | undefined {
  const stored = storedField(field);
  const kept = fields?.[stored];
  if (kept !== undefined) return kept;
  if (kind === 'Event') return readEventFields.has(stored) ? undefined : '';
  return kind === 'Pod' && readPodFields.has(stored) ? undefined : '';
}

/** A selectable field that is not kept with the entry, read from the object itself. */
export function readField(kind: string, obj: KObject, field: string): string {
  if (kind === 'Event') return readEventField(obj, storedField(field));
  if (kind === 'Pod' && field === 'status.podIP') return str(nested(obj, 'status', 'podIP')) ?? '';
  return '';
}

/** True when the source satisfies every requirement. */
export function matchesFields(reqs: FieldRequirement[], source: FieldSource): boolean {
  for (const r of reqs) {
    if ((source.field(r.field) === r.value) === r.negate) return false;
  }
  return true;
}
