import { KubeApiError, type StatusBody } from './errors.js';
import {
  apiVersionOf,
  collectionPath,
  objectPath,
  type KubeList,
  type KubeObject,
  type ResourceType,
} from './resources.js';
import type { Transport, TransportRequest } from './transport.js';

/** Options of a list call. */
export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
}

/** The patch types the API server accepts. */
export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

const patchContentTypes: { [k in PatchType]: string } = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** Options of a delete call. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** A reference to one object. */
export interface ObjectRef {
  name: string;
  namespace?: string;
}

/** Typed Kubernetes API calls over a Transport; every non-2xx answer becomes a KubeApiError. */
export class KubeClient {
  /** Wraps a transport. */
  constructor(readonly transport: Transport) {}

  /** Sends a request and parses the JSON answer, throwing KubeApiError on failure. */
  async call<R>(verb: string, req: TransportRequest): Promise<R> {
    const res = await this.transport.request(req);
    const parsed = res.body ? (JSON.parse(res.body) as unknown) : {};
    if (res.status < 200 || res.status >= 300) throw new KubeApiError(res.status, parsed as StatusBody, verb);
    return parsed as R;
  }

  /** Reads one object. */
  get<T extends KubeObject>(rt: ResourceType<T>, ref: ObjectRef): Promise<T> {
    return this.call(`get ${rt.kind} ${ref.name}`, { method: 'GET', path: objectPath(rt, ref) });
  }

  /** Lists objects (one page unless `limit` is unset). */
  list<T extends KubeObject>(rt: ResourceType<T>, opts: ListOptions = {}): Promise<KubeList<T>> {
    const { namespace, ...query } = opts;
    return this.call(`list ${rt.plural}`, { method: 'GET', path: collectionPath(rt, namespace), query: { ...query } });
  }

  /** Creates an object. */
  create<T extends KubeObject>(rt: ResourceType<T>, obj: T): Promise<T> {
    const body = { apiVersion: apiVersionOf(rt), kind: rt.kind, ...obj };
    return this.call(`create ${rt.kind}`, { method: 'POST', path: collectionPath(rt, obj.metadata.namespace), body });
  }

  /** Replaces an object; fails with 409 Conflict when its resourceVersion is stale. */
  update<T extends KubeObject>(rt: ResourceType<T>, obj: T, subresource?: 'status'): Promise<T> {
    const ref = { name: obj.metadata.name ?? '', namespace: obj.metadata.namespace };
    const body = { apiVersion: apiVersionOf(rt), kind: rt.kind, ...obj };
    return this.call(`update ${rt.kind} ${ref.name}`, { method: 'PUT', path: objectPath(rt, ref, subresource), body });
  }

  /** Patches an object (or its status) with the given patch type. */
  patch<T extends KubeObject>(
    rt: ResourceType<T>,
    ref: ObjectRef,
    patch: unknown,
    opts: { type?: PatchType; subresource?: string; fieldManager?: string; force?: boolean } = {},
  ): Promise<T> {
    const type = opts.type ?? 'merge';
    return this.call(`patch ${rt.kind} ${ref.name}`, {
      method: 'PATCH',
      path: objectPath(rt, ref, opts.subresource),
      body: patch,
      contentType: patchContentTypes[type],
      query: { fieldManager: opts.fieldManager, force: opts.force },
    });
  }

  /** Deletes an object; returns the object (with deletionTimestamp while finalizers remain) or a Status. */
  delete(rt: ResourceType<unknown>, ref: ObjectRef, opts: DeleteOptions = {}): Promise<unknown> {
    return this.call(`delete ${rt.kind} ${ref.name}`, {
      method: 'DELETE',
      path: objectPath(rt, ref),
      body: { kind: 'DeleteOptions', apiVersion: 'v1', ...opts },
    });
  }

  /** Evicts a pod through the eviction API (429 when a PodDisruptionBudget forbids it). */
  evict(ref: Required<ObjectRef>, opts: DeleteOptions = {}): Promise<unknown> {
    const body = {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: ref.name, namespace: ref.namespace },
      deleteOptions: opts,
    };
    return this.call(`evict pod ${ref.namespace}/${ref.name}`, {
      method: 'POST',
      path: `/api/v1/namespaces/${encodeURIComponent(ref.namespace)}/pods/${encodeURIComponent(ref.name)}/eviction`,
      body,
    });
  }
}
