/** Create and update with kube-apiserver's semantics: metadata upkeep, validation, conflicts, no-op updates. */
import { applyCreateDefaults, applyUpdateDefaults, immutableChange } from '../builtin/defaults.js';
import { commitDelete, commitWrite, findObject, markStored, mustGet, subjectOf } from '../storage/commit.js';
import { updateOwnership, type Writer } from '../patch/field-managers.js';
import { generatedName, newUid, specChanged, stampType } from './metadata.js';
import { apiVersionOf, type ResourceInfo } from '../resources/resource-types.js';
import type { ServerState } from '../state.js';
import { admitPodPriority } from '../admission/priority.js';
import { admitPod } from '../admission/pod-admission.js';
import { parseEntry } from '../storage/store.js';
import { alreadyExists, badRequest, conflict, notFound, staleObjectText } from '../status.js';
import { admit, throwInvalid } from '../admission/validation.js';
import { deepEqual, isJson, type KObject } from '../types.js';

/** Options common to writes. */
export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  /** fieldValidation=Strict: unknown fields are an error, not silently dropped. */
  strict?: boolean;
  /** Keys the request body repeated (reported under fieldValidation=Strict). */
  duplicates?: string[];
  subresource?: string;
  operation?: 'Apply' | 'Update';
  /** managedFields already worked out (server-side apply); otherwise derived from the change. */
  managedFields?: unknown[];
}

/** The writer of a request, for managedFields. */
export function writerOf(state: ServerState, info: ResourceInfo, opts: WriteOptions): Writer {
  const now = state.clock.now();
  return {
    manager: opts.fieldManager ?? 'unknown',
    operation: opts.operation ?? 'Update',
    subresource: opts.subresource,
    apiVersion: apiVersionOf(info),
    now,
    time: state.timestamps.format(now),
    custom: info.custom,
    schema: info.schema,
  };
}

function checkNamespace(state: ServerState, info: ResourceInfo, o: KObject, namespace: string | undefined): void {
  if (!info.namespaced) {
    delete o.metadata.namespace;
    return;
  }
  if (o.metadata.namespace && namespace && o.metadata.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  o.metadata.namespace = namespace ?? o.metadata.namespace;
  if (!o.metadata.namespace) throw badRequest('the server could not find the requested resource: namespace required');
  const nsInfo = state.registry.find('', 'v1', 'namespaces');
  if (nsInfo && !state.store.table(nsInfo).objects.has(o.metadata.namespace)) {
    throw notFound({ kind: 'Namespace', group: '', name: o.metadata.namespace, resource: 'namespaces' });
  }
}

function initMetadata(info: ResourceInfo, o: KObject, stamp: string): void {
  for (const k of ['uid', 'resourceVersion', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink'])
    delete o.metadata[k];
  o.metadata.uid = newUid();
  o.metadata.creationTimestamp = stamp;
  if (info.hasStatus || info.custom) o.metadata.generation = 1;
  if (info.custom && info.subresources.some((s) => s.name === 'status')) delete o.status;
  if (!info.custom) applyCreateDefaults(o, info.hasStatus);
}

/**
 * Creates an object in a namespace (ignored for cluster-scoped kinds); returns what was stored. The input is
 * taken over and changed (every caller passes a freshly parsed or built object; copying it cost a fifth of a
 * create).
 */
export function createObject(
  state: ServerState,
  info: ResourceInfo,
  input: KObject,
  opts: WriteOptions & { namespace?: string },
): KObject {
  if (!isJson(input) || !isJson(input.metadata)) throw badRequest('Object has no metadata');
  let o = input;
  stampType(info, o);
  checkNamespace(state, info, o, opts.namespace);
  if (!o.metadata.name && o.metadata.generateName) o.metadata.name = generatedName(o.metadata.generateName);
  const name = o.metadata.name ?? '';
  const now = state.clock.now();
  initMetadata(info, o, state.timestamps.format(now));
  if (!info.custom && info.kind === 'Pod') {
    admitPodPriority(state, o);
    admitPod(o, { tokenVolume: state.serviceAccountTokenVolumes });
  }
  o = admit(info, o, { strict: opts.strict, duplicates: opts.duplicates });
  if (state.store.table(info).objects.has(o.metadata.namespace ? `${o.metadata.namespace}/${name}` : name))
    throw alreadyExists(subjectOf(info, name));
  o.metadata.managedFields =
    opts.managedFields ?? updateOwnership({ old: undefined, next: o, writer: writerOf(state, info, opts) });
  if (opts.dryRun) return { ...o, metadata: { ...o.metadata, resourceVersion: String(state.store.currentRv()) } };
  commitWrite(state, info, o);
  return o;
}

// What an update may change: the status subresource takes only status; the main resource keeps the old status.
function mergeForSubresource(info: ResourceInfo, old: KObject, incoming: KObject, sub: string | undefined): KObject {
  const hasStatusSub = info.subresources.some((s) => s.name === 'status');
  if (sub === 'status')
    return { ...old, metadata: { ...old.metadata, ...pickMetaForStatus(incoming) }, status: incoming.status };
  const next = { ...incoming };
  if (hasStatusSub && info.kind !== 'Namespace') {
    if (old.status === undefined) delete next.status;
    else next.status = old.status;
  }
  return next;
}

// A status update may still not change metadata except through the main resource; keep old metadata.
function pickMetaForStatus(_incoming: KObject): Record<string, unknown> {
  return {};
}

function preserveServerMeta(old: KObject, next: KObject): void {
  const m = next.metadata;
  m.uid = old.metadata.uid;
  m.creationTimestamp = old.metadata.creationTimestamp;
  m.name = old.metadata.name;
  if (old.metadata.namespace) m.namespace = old.metadata.namespace;
  else delete m.namespace;
  m.generation = old.metadata.generation;
  if (old.metadata.deletionTimestamp) {
    m.deletionTimestamp = old.metadata.deletionTimestamp;
    m.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
  } else {
    delete m.deletionTimestamp;
    delete m.deletionGracePeriodSeconds;
  }
  m.managedFields ??= old.metadata.managedFields;
}

function withoutTimes(entries: unknown[] | undefined): unknown[] {
  return (entries ?? []).map((e) => (isJson(e) ? { ...e, time: undefined } : e));
}

function sameContent(a: KObject, b: KObject): boolean {
  const strip = (o: KObject): KObject => ({
    ...o,
    metadata: { ...o.metadata, resourceVersion: undefined, managedFields: undefined },
  });
  return deepEqual(strip(a), strip(b));
}

function checkPodImmutables(info: ResourceInfo, old: KObject, next: KObject): void {
  const change = info.custom ? undefined : immutableChange(old, next);
  if (change)
    throwInvalid(info, old.metadata.name ?? '', [
      {
        type: 'FieldValueForbidden',
        field: change.field,
        detail: change.detail,
        message: `${change.field}: Forbidden: ${change.detail}`,
      },
    ]);
}

// The stored object an update replaces, after the body's name and resourceVersion are checked against it.
function currentFor(
  state: ServerState,
  info: ResourceInfo,
  input: KObject,
  opts: { namespace?: string; name: string },
): KObject {
  if (!isJson(input) || !isJson(input.metadata)) throw badRequest('Object has no metadata');
  const subject = subjectOf(info, opts.name);
  if (input.metadata.name && input.metadata.name !== opts.name)
    throw badRequest(
      `the name of the object (${input.metadata.name}) does not match the name on the URL (${opts.name})`,
    );
  const old = findObject(state, info, opts.namespace, opts.name);
  if (!old) throw notFound(subject);
  const rv = input.metadata.resourceVersion;
  if (rv && rv !== old.metadata.resourceVersion) throw conflict(subject, staleObjectText);
  return old;
}

/**
 * Replaces an object (or its status). A resourceVersion in the body must match the stored one (409
 * otherwise); an update that changes nothing is a no-op keeping the resourceVersion. Like createObject, it
 * takes over the input.
 */
export function updateObject(
  state: ServerState,
  info: ResourceInfo,
  input: KObject,
  opts: WriteOptions & { namespace?: string; name: string },
): KObject {
  const old = currentFor(state, info, input, opts);
  let next = mergeForSubresource(info, old, input, opts.subresource);
  stampType(info, next);
  preserveServerMeta(old, next);
  checkPodImmutables(info, old, next);
  if (!info.custom) applyUpdateDefaults(next);
  next = admit(info, next, { old, strict: opts.strict, duplicates: opts.duplicates });
  if ((info.hasStatus || info.custom) && specChanged(old, next))
    next.metadata.generation = (old.metadata.generation ?? 1) + 1;
  next.metadata.resourceVersion = old.metadata.resourceVersion;
  // managedFields a client writes itself (kubectl moving client-side-apply ownership to server-side apply)
  // are stored as given.
  const ownFields =
    opts.managedFields === undefined && !deepEqual(next.metadata.managedFields, old.metadata.managedFields);
  // An apply that changes no field may still change who owns them (a new manager co-owning a value).
  const newOwners =
    opts.managedFields !== undefined &&
    !deepEqual(withoutTimes(opts.managedFields), withoutTimes(old.metadata.managedFields));
  if (!ownFields && !newOwners && sameContent(old, next)) {
    markStored(state, old, mustGet(state, info, opts.namespace, opts.name));
    return old;
  }
  return store(state, info, { old, next }, ownFields ? { ...opts, managedFields: next.metadata.managedFields } : opts);
}

function store(
  state: ServerState,
  info: ResourceInfo,
  change: { old: KObject; next: KObject },
  opts: WriteOptions,
): KObject {
  const { old, next } = change;
  next.metadata.managedFields =
    opts.managedFields ?? updateOwnership({ old, next, writer: writerOf(state, info, opts) });
  if (opts.dryRun) return next;
  if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0)
    return parseEntry(commitDelete(state, info, next));
  commitWrite(state, info, next);
  return next;
}
