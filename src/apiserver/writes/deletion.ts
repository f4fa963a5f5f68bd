/** Deletion: preconditions, finalizers, pod grace periods and owner-reference garbage collection. */
import { commitDelete, commitWrite, findByUid, findObject, subjectOf } from '../storage/commit.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import type { ServerState } from '../state.js';
import { parseEntry } from '../storage/store.js';
import { conflict, notFound } from '../status.js';
import { timestamp, type KObject } from '../types.js';

/** metav1.DeleteOptions, the parts honoured. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

/** The object after a delete call, and whether it is gone (false: it waits for finalizers or the kubelet). */
export interface DeleteResult {
  object: KObject;
  removed: boolean;
}

const foreground = 'foregroundDeletion';
const orphan = 'orphan';

function checkPreconditions(info: ResourceInfo, o: KObject, p: DeleteOptions['preconditions']): void {
  const s = subjectOf(info, o.metadata.name ?? '');
  if (p?.uid && p.uid !== o.metadata.uid) {
    throw conflict(
      s,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${o.metadata.uid ?? ''}`,
    );
  }
  if (p?.resourceVersion && p.resourceVersion !== o.metadata.resourceVersion) {
    throw conflict(
      s,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${o.metadata.resourceVersion ?? ''}`,
    );
  }
}

// The grace period a pod deletion waits for the kubelet; 0 deletes at once (unbound or finished pods too).
function podGraceSeconds(state: ServerState, o: KObject, opts: DeleteOptions): number {
  if (o.kind !== 'Pod' || state.podGrace === 'immediate') return 0;
  const spec = (o.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
  const phase = (o.status as { phase?: string } | undefined)?.phase;
  if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
  const grace = opts.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30;
  const current = o.metadata.deletionGracePeriodSeconds;
  return current !== undefined ? Math.min(current, grace) : grace;
}

/** batch/v1 Jobs orphan their pods when the client names no policy (kube keeps that default for compatibility). */
function defaultPolicy(info: ResourceInfo): DeleteOptions['propagationPolicy'] {
  return info.group === 'batch' && info.plural === 'jobs' ? 'Orphan' : undefined;
}

function finalizersFor(o: KObject, policy: DeleteOptions['propagationPolicy']): string[] {
  const f = [...(o.metadata.finalizers ?? [])];
  if (policy === 'Foreground' && !f.includes(foreground) && !o.metadata.deletionTimestamp) f.push(foreground);
  if (policy === 'Orphan' && !f.includes(orphan) && !o.metadata.deletionTimestamp) f.push(orphan);
  return f;
}

/**
 * Deletes an object. With finalizers (or a pod's grace period) it only sets deletionTimestamp; otherwise it is
 * removed and its dependents are garbage-collected as the propagation policy says.
 */
export function deleteObject(
  state: ServerState,
  info: ResourceInfo,
  ref: { namespace?: string; name: string },
  opts: DeleteOptions,
): DeleteResult {
  const o = findObject(state, info, ref.namespace, ref.name);
  if (!o) throw notFound(subjectOf(info, ref.name));
  checkPreconditions(info, o, opts.preconditions);
  const grace = podGraceSeconds(state, o, opts);
  const finalizers = finalizersFor(o, opts.propagationPolicy ?? defaultPolicy(info));
  if (grace > 0 || finalizers.length > 0) {
    const unchanged =
      o.metadata.deletionTimestamp &&
      finalizers.length === (o.metadata.finalizers ?? []).length &&
      o.metadata.deletionGracePeriodSeconds === grace;
    if (unchanged) return { object: o, removed: false };
    o.metadata.deletionTimestamp ??= timestamp(state.clock.now() + grace * 1000);
    o.metadata.deletionGracePeriodSeconds = grace;
    o.metadata.finalizers = finalizers;
    if (opts.dryRun) return { object: o, removed: false };
    const stored = parseEntry(commitWrite(state, info, o));
    if (finalizers.includes(foreground) || finalizers.includes(orphan))
      state.defer(() => collectDependents(state, stored));
    return { object: stored, removed: false };
  }
  if (opts.dryRun) return { object: o, removed: true };
  const removed = parseEntry(commitDelete(state, info, o));
  afterRemoval(state, info, removed);
  return { object: removed, removed: true };
}

/** What follows an object's removal: its dependents are collected, and a namespace's contents go with it. */
function afterRemoval(state: ServerState, info: ResourceInfo, removed: KObject): void {
  state.defer(() => collectDependents(state, removed));
  if (info.group === '' && info.plural === 'namespaces')
    state.defer(() => deleteNamespaceContents(state, removed.metadata.name ?? ''));
}

/**
 * The namespace controller's work, done at once: everything in a deleted namespace goes with it (pods on a node
 * still get their grace period), so recreating the namespace does not bring old objects back.
 */
function deleteNamespaceContents(state: ServerState, namespace: string): void {
  const prefix = `${namespace}/`;
  for (const table of state.store.allTables()) {
    if (!table.info.namespaced) continue;
    // Keys first, entries one at a time: a compact table (Events) rebuilds each entry it is asked for.
    for (const key of [...table.objects.keys()]) {
      const entry = key.startsWith(prefix) ? table.objects.get(key) : undefined;
      if (entry) deleteQuietly(state, table.info, parseEntry(entry), 'Background');
    }
  }
}

function dependentsOf(state: ServerState, uid: string): Array<{ info: ResourceInfo; obj: KObject }> {
  const out: Array<{ info: ResourceInfo; obj: KObject }> = [];
  for (const d of state.dependents.get(uid) ?? []) {
    const found = findByUid(state, d);
    if (found) out.push(found);
  }
  return out;
}

function removeFinalizer(state: ServerState, info: ResourceInfo, o: KObject, finalizer: string): void {
  const fresh = findObject(state, info, o.metadata.namespace, o.metadata.name ?? '');
  if (!fresh || !(fresh.metadata.finalizers ?? []).includes(finalizer)) return;
  fresh.metadata.finalizers = (fresh.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  if (fresh.metadata.finalizers.length === 0 && fresh.metadata.deletionTimestamp) commitDelete(state, info, fresh);
  else commitWrite(state, info, fresh);
}

function orphanDependents(state: ServerState, uid: string): void {
  for (const d of dependentsOf(state, uid)) {
    d.obj.metadata.ownerReferences = (d.obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
    commitWrite(state, d.info, d.obj);
  }
}

/**
 * The garbage collector's step for one owner: a removed owner's dependents are deleted when no other owner
 * remains (background), an owner being deleted in the foreground waits for its dependents, and an orphaning
 * delete strips the owner references.
 */
export function collectDependents(state: ServerState, owner: KObject): void {
  const uid = owner.metadata.uid ?? '';
  const ownerInfo = state.uids.get(uid)?.table.info;
  const finalizers = owner.metadata.finalizers ?? [];
  if (ownerInfo && finalizers.includes(orphan)) {
    orphanDependents(state, uid);
    removeFinalizer(state, ownerInfo, owner, orphan);
    return;
  }
  const dependents = dependentsOf(state, uid);
  if (ownerInfo && finalizers.includes(foreground)) {
    for (const d of dependents)
      if (!d.obj.metadata.deletionTimestamp) deleteQuietly(state, d.info, d.obj, 'Foreground');
    const blocking = dependentsOf(state, uid).filter((d) =>
      d.obj.metadata.ownerReferences?.some((r) => r.uid === uid && r.blockOwnerDeletion),
    );
    if (blocking.length === 0) removeFinalizer(state, ownerInfo, owner, foreground);
    return;
  }
  if (ownerInfo) return;
  for (const d of dependents) {
    const liveOwners = (d.obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid && state.uids.has(r.uid));
    if (liveOwners.length === 0) deleteQuietly(state, d.info, d.obj, 'Background');
  }
}

function deleteQuietly(
  state: ServerState,
  info: ResourceInfo,
  o: KObject,
  policy: DeleteOptions['propagationPolicy'],
): void {
  try {
    deleteObject(
      state,
      info,
      { namespace: o.metadata.namespace, name: o.metadata.name ?? '' },
      { propagationPolicy: policy },
    );
  } catch {
    // Already gone: nothing to collect.
  }
}

/** Re-checks foreground owners when a dependent goes away (so the owner's finalizer can be removed). */
export function onDependentRemoved(state: ServerState, dependent: KObject): void {
  for (const ref of dependent.metadata.ownerReferences ?? []) {
    const owner = findByUid(state, ref.uid);
    if (owner?.obj.metadata.finalizers?.includes(foreground)) collectDependents(state, owner.obj);
  }
}
